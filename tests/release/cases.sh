#!/bin/sh
# tests/release/cases.sh SIDE OUT - run inside a release root (chroot) by
# run-release.py, once per library: SIDE "release" runs on the root's own
# libselinux.so.1, SIDE "ours" with LD_LIBRARY_PATH=/opt/rel/ours/lib.
# Every case records OUT/NAME.out, .err, .rc (and .file for what it
# writes); the programs are the release's own, except in the "scu." and
# "scu6." cases,
# where the ours side runs our utils/sefcontext_compile (the program a
# drop-in replaces along with the library).  Nothing needs an SELinux
# kernel: the root has no /sys, so every library finds SELinux disabled.
SIDE=$1 O=$2
export LC_ALL=C PATH=/usr/sbin:/usr/bin:/sbin:/bin
unset LD_LIBRARY_PATH
# SIDE "compat": the same on our library built for the root's release;
# "srv-release" and "srv-compat": those two again with SELinux enabled,
# the project's security server mounted on /sys/fs/selinux (the release's
# library told by the statfs shim that it is selinuxfs)
case $SIDE in
ours|compat) export LD_LIBRARY_PATH=/opt/rel/$SIDE/lib ;;
srv-compat) export LD_LIBRARY_PATH=/opt/rel/compat/lib ;;
srv-release) export LD_PRELOAD=/opt/rel/fake_selinuxfs.so FAKE_SELINUXFS=/sys/fs/selinux ;;
esac
mkdir -p "$O"
F=/etc/selinux/default/contexts/files
FC=$F/file_contexts
POL=$(ls /etc/selinux/default/policy/policy.* | tail -n 1)
W=/tmp/rel-work
V5=/opt/rel/v5/file_contexts
# the scu. cases find our sefcontext_compile first in PATH, as installed
SCUPATH=$PATH
case $SIDE in ours|compat) SCUPATH=/opt/rel/$SIDE/bin:$PATH;;
srv-compat) SCUPATH=/opt/rel/compat/bin:$PATH;; esac

# c NAME CMD...: record what CMD prints and its exit status
c() { n=$1; shift; "$@" > "$O/$n.out" 2> "$O/$n.err" < /dev/null; echo $? > "$O/$n.rc"; }
# cs NAME CMD...: the same, its output sorted (several threads)
cs() { c "$@"; sort -o "$O/$1.out" "$O/$1.out"; sort -o "$O/$1.err" "$O/$1.err"; }
# keep NAME FILE: what a case wrote, compared byte for byte
keep() { if [ -e "$2" ]; then cp "$2" "$O/$1.file"; else echo missing > "$O/$1.file"; fi; }

python3 /opt/rel/pycases.py setup || exit 1
rm -rf $W && mkdir -p $W
# a small file_contexts of our own, and one with a bad line
printf '%s\n' '/srv/t(/.*)?	system_u:object_r:var_t:s0' \
	'/srv/t/d(/.*)?	system_u:object_r:etc_t:s0' \
	'/srv/t/a b	--	system_u:object_r:tmp_t:s0' \
	'/srv/t/link	-l	<<none>>' > $W/fc-small
printf '%s\n' '/srv/t(/.*)?	system_u:object_r:var_t:s0' \
	'/srv/t/x	-q	system_u:object_r:etc_t:s0' \
	'/srv/t/y	system_u:object_r:no_such_t:s0' > $W/fc-bad
# which spec wins: literal and regex specs across file_contexts,
# .homedirs and .local of a policy root of our own (matchpathcon -P)
mkdir -p $W/pol/contexts/files
printf '%s\n' '/.*	system_u:object_r:default_t:s0' \
	'/srv/p(/.*)?	system_u:object_r:var_t:s0' \
	'/srv/p/lit	system_u:object_r:etc_t:s0' \
	'/srv/p/re[0-9]	system_u:object_r:bin_t:s0' \
	'/srv/p/both	-d	system_u:object_r:usr_t:s0' \
	'/srv/p/both2	system_u:object_r:usr_t:s0' \
	'/srv/p/both3	system_u:object_r:usr_t:s0' \
	'/srv/p/both4	system_u:object_r:usr_t:s0' \
	'/srv/p/late.*	system_u:object_r:lib_t:s0' \
	'/srv/p/late	system_u:object_r:man_t:s0' \
	'/srv/p/late.*	system_u:object_r:src_t:s0' > $W/pol/contexts/files/file_contexts
printf '%s\n' '/srv/p/li.*	system_u:object_r:user_home_t:s0' \
	'/srv/p/home	system_u:object_r:user_home_dir_t:s0' \
	'/srv/p/both4	system_u:object_r:user_home_t:s0' \
	> $W/pol/contexts/files/file_contexts.homedirs
printf '%s\n' '/srv/p/l.*	system_u:object_r:tmp_t:s0' \
	'/srv/p/re1	system_u:object_r:lib_t:s0' \
	'/srv/p/both	system_u:object_r:net_conf_t:s0' \
	'/srv/p/both2	system_u:object_r:net_conf_t:s0' \
	'/srv/p/both3	-d	system_u:object_r:net_conf_t:s0' \
	'/srv/p/home.*	system_u:object_r:shadow_t:s0' \
	> $W/pol/contexts/files/file_contexts.local
PP="/srv/p/lit /srv/p/lit2 /srv/p/re1 /srv/p/re2 /srv/p/both /srv/p/both2 /srv/p/both3 /srv/p/both4 /srv/p/home /srv/p/late /srv/p/later /srv/p/x"
# the same literal path several times: in one file, with each pair of
# file types (no type, -d -c -b -s -p -l --), and across file_contexts,
# .homedirs and .local, with and without types (matchpathcon -P, -m)
mkdir -p $W/pol2/contexts/files
u=system_u:object_r
PQ=""
for x in n d c b s p l f; do for y in n d c b s p l f; do
	[ $x = $y ] && continue
	PQ="$PQ /q/$x$y"
	for t in $x:usr_t $y:etc_t; do
		case ${t%%:*} in n) m="";; f) m="--	";; *) m="-${t%%:*}	";; esac
		printf '%s\n' "/q/$x$y	$m$u:${t#*:}:s0"
	done
done; done > $W/pol2/contexts/files/file_contexts
for k in a:local h:homedirs; do
	x=${k%%:*} f=${k#*:}
	case $f in local) t=tmp_t;; *) t=user_home_t;; esac
	printf '%s\n' "/q/${x}1	$u:usr_t:s0" "/q/${x}2	-d	$u:usr_t:s0" \
		"/q/${x}3	$u:usr_t:s0" "/q/${x}5	--	$u:usr_t:s0" \
		"/q/${x}6	-d	$u:usr_t:s0" >> $W/pol2/contexts/files/file_contexts
	printf '%s\n' "/q/${x}1	$u:net_conf_t:s0" "/q/${x}2	$u:net_conf_t:s0" \
		"/q/${x}3	-d	$u:net_conf_t:s0" "/q/${x}5	-d	$u:net_conf_t:s0" \
		"/q/${x}6	--	$u:net_conf_t:s0" "/q/hl	$u:$t:s0" \
		"/q/dup	$u:usr_t:s0" "/q/dup	$u:etc_t:s0" \
		> $W/pol2/contexts/files/file_contexts.$f
	PQ="$PQ /q/${x}1 /q/${x}2 /q/${x}3 /q/${x}5 /q/${x}6"
done
PQ="$PQ /q/hl /q/dup"

# selabel_cmp: small pairs that tell how specs are compared (regex
# order, literal order, file types, contexts, path components), and
# setfiles -W on specs of every file type in several components
mkdir -p $W/cmp
m() { f=$W/cmp/$1; shift; printf '%s\n' "$@" > $f; }
m ra "/a.*	$u:etc_t:s0"; m rab "/a.*	$u:etc_t:s0" "/b.*	$u:etc_t:s0"
m rb "/b.*	$u:etc_t:s0"; m rba "/b.*	$u:etc_t:s0" "/a.*	$u:etc_t:s0"
m rac "/a.*	$u:tmp_t:s0"; m rad "/a.*	-d	$u:etc_t:s0"
m rbad "/b.*	$u:etc_t:s0" "/a.*	$u:etc_t:s0" "/d.*	$u:etc_t:s0"
m racd "/a.*	$u:etc_t:s0" "/c.*	$u:etc_t:s0" "/d.*	$u:etc_t:s0"
m lxy "/x	$u:etc_t:s0" "/y	$u:etc_t:s0"; m lyx "/y	$u:bin_t:s0" "/x	$u:etc_t:s0"
m lxz "/x	$u:etc_t:s0" "/z	$u:etc_t:s0"; m lx "/x	$u:etc_t:s0"
m lxd "/x	-d	$u:etc_t:s0"; m lxf "/x	--	$u:etc_t:s0"
m lxdf "/x	-d	$u:etc_t:s0" "/x	--	$u:etc_t:s0"
m lxnd "/x	$u:etc_t:s0" "/x	-d	$u:etc_t:s0"
m rax "/a.*	$u:etc_t:s0" "/x	$u:etc_t:s0"
m raxy "/a.*	$u:etc_t:s0" "/x	$u:etc_t:s0" "/y	$u:etc_t:s0"
m rabx "/a.*	$u:etc_t:s0" "/b.*	$u:etc_t:s0" "/x	$u:etc_t:s0"
m ua "/usr/lib/a.*	$u:etc_t:s0"; m ub "/usr/lib/b.*	$u:etc_t:s0"
m ux "/usr/lib/x	$u:etc_t:s0"; m eq "/etc/q	$u:etc_t:s0"
m raeq "/a.*	$u:etc_t:s0" "/etc/q	$u:etc_t:s0"
m eqr "/etc/q	$u:etc_t:s0" "/etc/r	$u:etc_t:s0"
m kac "/k/a/x	$u:etc_t:s0" "/k/c/x	$u:etc_t:s0"
m kbc "/k/b/x	$u:etc_t:s0" "/k/c/x	$u:etc_t:s0"
SCMP="rab:ra rab:rb rb:rab rab:rba ra:rb ra:rac ra:rad rbad:racd lxy:lyx lxy:lx lxy:lxz lx:lxd lxd:lx lxd:lxf lxdf:lxd lxdf:lxf lxnd:lxd rax:lx rax:raxy raxy:rabx rabx:raxy ua:ub ux:eq raeq:eqr kac:kbc kbc:kac"
printf '%s\n' "/.*	$u:default_t:s0" "/w/a	$u:etc_t:s0" "/w/a2	-d	$u:etc_t:s0" \
	"/w/b/c/d/e	--	$u:etc_t:s0" "/w/lost\+found	-d	$u:etc_t:s0" \
	"/w/r.*	-c	$u:etc_t:s0" "/w/s.*	-b	$u:etc_t:s0" \
	"/w/t.*	-s	$u:etc_t:s0" "/w/u.*	-p	$u:etc_t:s0" \
	"/w/v.*	-l	$u:etc_t:s0" "/w/b/c/x.*	<<none>>" \
	"/a(/.*)?	$u:bin_t:s0" "/w/\.h	$u:etc_t:s0" > $W/fc-types
mkdir -p $W/empty
# duplicate specs (setfiles validates): literal and regex ones, file types
# equal or not, contexts equal or not, across path components
printf '%s\n' "/d/x	$u:etc_t:s0" "/d/x	-d	$u:bin_t:s0" "/d/x	--	$u:etc_t:s0" \
	"/d/x	-d	$u:etc_t:s0" "/r.*	$u:etc_t:s0" "/r.*	-d	$u:etc_t:s0" \
	"/a/b/c.*	$u:bin_t:s0" "/a/b/c.*	$u:tmp_t:s0" "/e	$u:etc_t:s0" \
	"/e	$u:etc_t:s0" "/b	$u:etc_t:s0" "/b	-l	$u:bin_t:s0" \
	"/a/b/c.*	-p	$u:lib_t:s0" > $W/fc-dups

P="/etc/passwd /etc/shadow /etc/hosts /etc/hostname /etc/group /etc/fstab /bin/sh /usr/bin/ls /usr/sbin/sshd /var/run /run/utmp /home/alice /home/alice/.ssh /home/alice/.bashrc /var/www/t/index.html /var/www/t/cgi-bin/run /tmp/rel-x /srv/t /dev/null /proc/self /nonexistent/x"

# ---- selinux-utils
c mp.paths matchpathcon $P
c mp.n matchpathcon -n /etc/passwd /usr/sbin/sshd /tmp/rel-x
c mp.N matchpathcon -N /etc/passwd /home/alice/.ssh
c mp.m.dir matchpathcon -m dir /etc/passwd /var/run
c mp.m.file matchpathcon -m file /var/run /run/utmp
c mp.m.lnk matchpathcon -m lnk /bin/sh /srv/t/link
c mp.m.chr matchpathcon -m chr /dev/null /dev/tty1
c mp.m.lnk_file matchpathcon -m lnk_file /bin/sh /srv/t/link
c mp.m.chr_file matchpathcon -m chr_file /dev/null /dev/tty1
c mp.m.sock_file matchpathcon -m sock_file /var/run/cups/cups.sock /run/systemd/notify
c mp.m.bad matchpathcon -m nosuch /etc/passwd
c mp.V matchpathcon -V /etc/passwd /etc/shadow /etc/hosts /etc/hostname /etc/group /etc/fstab /home/alice/file /var/www/t/index.html /tmp/rel-x /srv/t/link
c mp.f matchpathcon -f $W/fc-small /srv/t /srv/t/d/e/f "/srv/t/a b" /srv/t/link /etc/passwd
c mp.f.bad matchpathcon -f $W/fc-bad /srv/t/x
c mp.f.missing matchpathcon -f /nonexistent/fc /etc/passwd
c mp.p matchpathcon -p /etc /etc/passwd /usr/bin/ls
c mp.P matchpathcon -P /etc/selinux/default /etc/passwd
c prec matchpathcon -P $W/pol $PP
c prec.dir matchpathcon -P $W/pol -m dir $PP
c prec2 matchpathcon -P $W/pol2 $PQ
c prec2.dir matchpathcon -P $W/pol2 -m dir $PQ
c prec2.file matchpathcon -P $W/pol2 -m file $PQ
c mp.v5 matchpathcon -f $V5 /etc/passwd /etc/shadow /home/alice/.ssh
c sl.file selabel_lookup -b file -k /etc/shadow
c sl.mode selabel_lookup -b file -k /var/run -t 16384
c sl.raw selabel_lookup -r -b file -k /usr/bin/ls
c sl.none selabel_lookup -b file -k /tmp/rel-x
c sl.missing selabel_lookup -b file -k /proc/1/x
c sl.small selabel_lookup -b file -k /srv/t/link -t 40960 -f $W/fc-small
c sl.v5 selabel_lookup -b file -k /etc/shadow -f $V5
c sl.media selabel_lookup -b media -k cdrom
c sl.x selabel_lookup -b x -k X11:ButtonPress -t 4
c sl.db selabel_lookup -b db -k postgres -t 1
c sl.prop selabel_lookup -b prop -k ro.x
c sd.file selabel_digest -b file
c sd.B selabel_digest -b file -B
c sd.i selabel_digest -b file -i
c sd.f selabel_digest -b file -f $W/fc-small
c sd.media selabel_digest -b media
c sd.v5 selabel_digest -b file -f $V5
c spm.etc selabel_partial_match -p /etc/selinux
c spm.home selabel_partial_match -p /home/alice
c spm.none selabel_partial_match -p /nonexistent/a/b
c spm.small selabel_partial_match -p /srv -f $W/fc-small
c sbm.initctl selabel_lookup_best_match -p /dev/initctl /run/systemd/initctl/fifo
c sbm.mode selabel_lookup_best_match -p /bin/sh -m f
c sbm.links selabel_lookup_best_match -p /dev/xyz -m c /dev/null /dev/tty1
c sbm.none selabel_lookup_best_match -p /tmp/rel-x
c scmp.same selabel_compare $FC $FC
c scmp.diff selabel_compare $W/fc-small $W/fc-bad
c scmp.home selabel_compare $FC $FC.homedirs
c scmp.pairs sh -c 'for p in $2; do echo "== $p"; selabel_compare $1/${p%:*} $1/${p#*:} 2>&1; done' sh $W/cmp "$SCMP"
c getenforce getenforce
c selinuxenabled selinuxenabled
c getsebool getsebool -a
c getseuser.root getseuser root ""
c getseuser.alice getseuser alice ""
c policyvers policyvers
c getfilecon getfilecon /etc/passwd /etc/hostname /etc/group
c getfilecon.none getfilecon /etc/fstab
c setfilecon setfilecon system_u:object_r:etc_t:s0 /srv/t/d/e/f
c setfilecon.after getfilecon /srv/t/d/e/f
c getconlist getconlist root
c getdefaultcon getdefaultcon root
c securetty selinux_check_securetty_context system_u:system_r:getty_t:s0
c compute_av compute_av system_u:system_r:init_t:s0 system_u:object_r:etc_t:s0 file
c selinuxexeccon selinuxexeccon /bin/sh
c sestatus sestatus

# ---- sefcontext_compile, byte for byte; the release's program on each
# library ("sc."), and each side's own program ("scu.": ours on the ours side)
for pre in sc scu; do
	prog=sefcontext_compile
	[ $pre = scu ] && prog="env PATH=$SCUPATH sefcontext_compile"
	rm -rf $W/$pre && mkdir $W/$pre && cp $FC $FC.homedirs $W/$pre/
	touch -d 2000-01-01 $W/$pre/*	# older than what is compiled from them
	c $pre.fc $prog -o $W/$pre/fc.bin $FC
	keep $pre.fc $W/$pre/fc.bin
	c $pre.home $prog $W/$pre/file_contexts.homedirs
	keep $pre.home $W/$pre/file_contexts.homedirs.bin
	c $pre.r $prog -r -o $W/$pre/fc-r.bin $FC
	keep $pre.r $W/$pre/fc-r.bin
	c $pre.p $prog -p $POL -o $W/$pre/fc-p.bin $FC
	keep $pre.p $W/$pre/fc-p.bin
	c $pre.bad $prog -o $W/$pre/bad.bin $W/fc-bad
	c $pre.V $prog -V
	c $pre.i $prog -i
	c $pre.files ls -1 $W/$pre
	# the library reading what that program wrote
	c $pre.read matchpathcon -f $W/$pre/file_contexts.homedirs /home/alice/.ssh /root
	c $pre.digest selabel_digest -b file -f $W/$pre/file_contexts.homedirs
done
# our program asked for the release's format (-F 6, no index) against
# the release's program: the same bytes?
F6=""
# (the compat side is built for the release: its defaults are asked)
[ "$SIDE" = ours ] && F6="-F 6 -N"
rm -rf $W/scu6 && mkdir $W/scu6
c scu6.fc env PATH=$SCUPATH sefcontext_compile $F6 -o $W/scu6/fc.bin $FC
keep scu6.fc $W/scu6/fc.bin
c scu6.r env PATH=$SCUPATH sefcontext_compile $F6 -r -o $W/scu6/fc-r.bin $FC
keep scu6.r $W/scu6/fc-r.bin
c scu6.home env PATH=$SCUPATH sefcontext_compile $F6 -o $W/scu6/home.bin $FC.homedirs
keep scu6.home $W/scu6/home.bin

# a compiled file alone, without its text: Debian 12's v5, the release's v6
mkdir -p $W/v5only $W/v6only
cp /opt/rel/v5/file_contexts.bin $W/v5only/
cp $FC.bin $W/v6only/file_contexts.bin
for v in v5only v6only; do
	c $v matchpathcon -f $W/$v/file_contexts /etc/passwd /etc/shadow
	c $v.lookup selabel_lookup -b file -k /etc/shadow -f $W/$v/file_contexts
	c $v.digest selabel_digest -b file -f $W/$v/file_contexts
done

# ---- policycoreutils
c sf.nv setfiles -n -v $FC /etc /var/www /home /srv/t
cs sf.nv.T2 setfiles -n -v -T 2 $FC /etc /var/www /home /srv/t
c sf.nvF setfiles -n -v -F $FC /etc/hosts /etc/shadow /srv/t
# -U (user and role too) and -A (no hard link tracking): sid's setfiles(8)
c sf.U setfiles -n -v -U $FC /etc/hosts /etc/shadow /srv/t
c sf.A setfiles -n -v -A $FC /srv/t
# -U on a file of another user (pycases.py's /srv/t/rc/u): 3.11 sets the
# spec's user and role too (SET_USER_ROLE); without -U only the type
c sf.Uuser setfiles -n -v -U $FC /srv/t/rc/u
c sf.nouser setfiles -n -v $FC /srv/t/rc/u
c sf.W setfiles -n -W $FC /etc /var/www /home /srv/t
c sf.W.types setfiles -n -W $W/fc-types $W/empty
c sf.dups setfiles -n $W/fc-dups $W/empty
c sf.d setfiles -n -d $FC /srv/t /home/alice
c sf.c setfiles -c $POL $FC
c sf.c.small setfiles -c $POL $W/fc-small
c sf.c.bad setfiles -c $POL $W/fc-bad
# a file bind-mounted from another file system into a directory (as a
# container's /etc/hosts): its st_dev is not its directory's
mkdir -p /srv/x && : > /srv/x/plain && : > /srv/x/bound
mount --bind /opt/rel/pycases.py /srv/x/bound
c sf.xdev setfiles -n -v $FC /srv/x
umount /srv/x/bound
c sf.missing setfiles -n -v $FC /nonexistent
c sf.real setfiles -v $FC /srv/t/real
c sf.real.after python3 /opt/rel/pycases.py dump /dev/stdout /srv/t/real
c rc.nv restorecon -n -v /etc/shadow /etc/passwd /etc/hosts /etc/hostname /etc/group /etc/fstab
c rc.Rnv restorecon -R -n -v /home/alice /var/www/t /srv/t
c rc.RnvF restorecon -R -n -v -F /home/alice /srv/t
c rc.missing restorecon -n -v /nonexistent
c rc.i restorecon -i -n -v /nonexistent
c rc.real restorecon -R -v -D /srv/t/real2
c rc.real.after python3 /opt/rel/pycases.py dump /dev/stdout /srv/t/real2
c rc.real.again restorecon -R -v -D /srv/t/real2
c digests selabel_get_digests_all_partial_matches -r /srv/t/real2
c digests.etc selabel_get_digests_all_partial_matches /etc
# which specs the partial-match digest takes, in which order: specs in
# several nodes of the version 6 tree (the root, srv, srv/t and below),
# one path with two file types, and a <<none>> among them
printf '%s\n' '/.*	system_u:object_r:default_t:s0' \
	'/srv(/.*)?	system_u:object_r:var_t:s0' \
	'/srv/t(/.*)?	system_u:object_r:etc_t:s0' \
	'/srv/t/x	--	system_u:object_r:tmp_t:s0' \
	'/srv/t/d(/.*)?	system_u:object_r:usr_t:s0' \
	'/srv/t/d/e/f	system_u:object_r:lib_t:s0' \
	'/srv/t	-d	system_u:object_r:bin_t:s0' \
	'/srv/t	--	system_u:object_r:man_t:s0' \
	'/srv/tt/x	system_u:object_r:src_t:s0' \
	'/srv/[^/]+/z	system_u:object_r:shadow_t:s0' > $W/fc-digest
printf '%s\n' '/srv/t	-d	system_u:object_r:bin_t:s0' \
	'/srv/t(/.*)?	<<none>>' \
	'/.*	system_u:object_r:default_t:s0' > $W/fc-digest-none
c digests.small selabel_get_digests_all_partial_matches -f $W/fc-digest /srv/t
c digests.small.srv selabel_get_digests_all_partial_matches -f $W/fc-digest /srv
c digests.none selabel_get_digests_all_partial_matches -f $W/fc-digest-none /srv/t

# ---- policycoreutils-python-utils: semanage reading the root's policy
# store (python3-semanage, sepolicy, setools over the library), audit2why
# and audit2allow on denials recorded on a refpolicy system (sepolgen and
# python3-selinux's audit2why module)
c sm.boolean semanage boolean -l
c sm.fcontext semanage fcontext -l
c sm.login semanage login -l
c sm.user semanage user -l
c sm.port semanage port -l
c a2w audit2why -p $POL -i /opt/rel/denials.log
c a2a audit2allow -p $POL -i /opt/rel/denials.log

# ---- coreutils and findutils -Z on labelled files
c ls.Z ls -Z /srv/t
c ls.dZ ls -dZ /etc/passwd /etc/hostname /etc/group /etc/fstab
c stat.C stat -c '%n %C' /etc/passwd /etc/hosts /srv/t/link
cs find.Z find /srv/t /home/alice -printf '%p %Z\n'
c id.Z id -Z

# ---- python3-selinux
# (one process; a library it cannot load shows as py.calls failing)
c py.calls python3 /opt/rel/pycases.py calls "$O"
c py.restorecon.after python3 /opt/rel/pycases.py dump /dev/stdout /srv/t/py
