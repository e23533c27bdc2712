# ruby_calls.rb SECTION WORKDIR
#
# Calls many functions of whichever `selinux` extension `require` finds
# first and prints one canonical line per call: what it returned (and the
# C errno after a -1), or the class of what it raised.
# ruby_differential.py runs it with Debian's ruby-selinux and with ours
# (-I build/bindings/ruby) and compares the outputs line by line, so
# nothing printed may depend on which extension runs: no addresses, no
# pids.
#
# SECTION:
#   interface  the names of the module's functions and constants, the
#              classes and their accessors, each function's argument
#              count and the type of each argument (SWIG's messages);
#   local      real files with security.selinux xattrs under WORKDIR,
#              process attributes (EINVAL on a kernel without SELinux),
#              the fixture /etc/selinux tree (WORKDIR/etc/selinux, made
#              by calls.py tree), matchpathcon and selabel on its
#              file_contexts, context_t, structures, wrong arguments;
#   server     the calls that need a policy, against the selinuxfs at
#              $SELINUXFS_MNT (kernel/'s server, tests/lib/with-server.sh).
#
# The first line printed is the file `require "selinux"` loaded, which
# the driver checks (and drops before comparing).
require "fiddle"
require "socket"

SECTION, WORK = ARGV
$stdout.sync = true
require "selinux"
puts "loaded: " + $LOADED_FEATURES.grep(%r{/selinux\.so\z}).join(" ") + " " +
     File.readlines("/proc/self/maps").map { |l| l.split[5] }
         .grep(/libselinux\.so/).uniq.join(" ")

S_IFREG = 0o100000
S_IFDIR = 0o040000
S_IFLNK = 0o120000
S_IFCHR = 0o020000
S_IFBLK = 0o060000
S_IFIFO = 0o010000
S_IFSOCK = 0o140000
MODES = [0, S_IFREG, S_IFDIR, S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK, S_IFLNK]

ERRNO_LOCATION = Fiddle::Function.new(
  Fiddle.dlopen(nil)["__errno_location"], [], Fiddle::TYPE_VOIDP)
ERRNO_NAMES = Errno.constants.each_with_object({}) do |n, h|
  k = Errno.const_get(n)
  # (Errno's names unknown to this system have the number 0)
  next unless k.is_a?(Class) && k.const_defined?(:Errno) && k::Errno != 0

  h[k::Errno] ||= n.to_s
end

def c_errno
  ERRNO_LOCATION.call[0, Fiddle::SIZEOF_INT].unpack1("i")
end

def set_errno(v)
  ERRNO_LOCATION.call[0, Fiddle::SIZEOF_INT] = [v].pack("i")
end

# A value as text that is the same for both extensions.
def canon(v)
  case v
  when Array then "[" + v.map { |x| canon(x) }.join(", ") + "]"
  when String, Integer, NilClass, TrueClass, FalseClass, Symbol then v.inspect
  else "<#{v.class.name.sub(/\ASWIG::TYPE_p_/, 'p_')}>"
  end
end

def out(line)
  puts line
end

# Prints label and what the block gave; returns the result (nil when it
# raised).  After a result of -1 (alone or first) the C errno follows.
def call(label)
  set_errno(0)
  r = yield
  e = c_errno
  line = "#{label} -> #{canon(r)}"
  rc = r.is_a?(Array) ? r[0] : r
  line += " errno=#{ERRNO_NAMES[e] || e}" if rc == -1
  out line
  r
rescue TypeError, RangeError, ArgumentError => ex
  out "#{label} -> #{ex.class}"
  nil
end

# call() for a module function, labelled with its name and arguments.
def c(name, *args)
  call("#{name}(#{args.map { |a| canon(a) }.join(', ')})") do
    Selinux.send(name, *args)
  end
end

def xattr(path)
  IO.popen(["getfattr", "--absolute-names", "-h", "-n", "security.selinux",
            "--only-values", path, { err: File::NULL }], &:read).inspect
end

def setx(path, ctx, nul: true)
  v = nul ? ctx + "\0" : ctx
  system("setfattr", "-h", "-n", "security.selinux", "-v",
         "0x" + v.unpack1("H*"), path, exception: true)
end

# ---------------------------------------------------------------------
# interface
# ---------------------------------------------------------------------

# Our extensions, which Debian's extension lacks (tests/bindings/explain.py
# checks them): left out of the comparison.
OURS_ONLY = %i[selabel_lookup_explain]

def interface
  funcs = (Selinux.methods - Object.methods - OURS_ONLY).sort
  out "#{funcs.size} functions"
  funcs.each do |m|
    # Too many arguments: SWIG refuses before any call, saying how many.
    begin
      Selinux.send(m, *([nil] * 20))
      out "#{m}: called with 20 arguments"
      next
    rescue ArgumentError => e
      n = e.message[/\(\d+ for (\d+)\)/, 1]
    end
    # Argument i's type: a wrong one there, acceptable ones before it
    # (SWIG converts in order and refuses before calling).
    types = []
    fill = []
    n.to_i.times do |i|
      begin
        Selinux.send(m, *(fill + [Object.new] + [nil] * (n.to_i - i - 1)))
        types << "called"
        break
      rescue TypeError, RangeError, ArgumentError => e
        t = e.message[/of type (.*), but got/, 1] || e.class.name
        types << t
        fill << case t
                when /char/ then "x"
                when /int|long|short|pid_t|mode_t|size_t|_vector_t|class_t/
                  0
                end
      end
    end
    out "#{m}(#{types.join(', ')}) for #{n}"
  end
  Selinux.constants.sort.each do |k|
    v = Selinux.const_get(k)
    if v.is_a?(Class)
      out "class #{k} < #{v.superclass}: " +
          v.instance_methods(false).sort.join(" ")
    else
      out "const #{k} = #{v.inspect}"
    end
  end
  out "private: " +
      (Selinux.private_instance_methods(false) - OURS_ONLY).sort.join(" ")
end

# ---------------------------------------------------------------------
# local
# ---------------------------------------------------------------------

def files
  d = File.join(WORK, "files")
  Dir.mkdir(d)
  f = File.join(d, "f")
  g = File.join(d, "g")
  link = File.join(d, "link")
  dangling = File.join(d, "dangling")
  sub = File.join(d, "sub")
  File.write(f, "x")
  File.write(g, "y")
  File.symlink("f", link)
  File.symlink("nowhere", dangling)
  Dir.mkdir(sub)
  setx(f, "system_u:object_r:etc_t:s0")
  setx(sub, "system_u:object_r:tmp_t")
  setx(link, "system_u:object_r:lnk_t:s0")
  # without the NUL some writers leave out
  setx(g, "user_u:object_r:user_home_t", nul: false)

  %w[getfilecon getfilecon_raw lgetfilecon lgetfilecon_raw].each do |fn|
    [f, g, link, dangling, sub, d, File.join(d, "missing"), "", nil].each do |p|
      c(fn, p)
    end
  end
  %w[fgetfilecon fgetfilecon_raw].each do |fn|
    [f, g, sub, d].each do |p|
      File.open(p) do |io|
        call("#{fn}(fd of #{File.basename(p)})") { Selinux.send(fn, io.fileno) }
      end
    end
    c(fn, -1)
    c(fn, 9999)
  end

  c("setfilecon", f, "system_u:object_r:shadow_t:s0")
  c("getfilecon", f)
  c("setfilecon_raw", link, "system_u:object_r:bin_t:s0")
  c("getfilecon", f)
  c("lgetfilecon", link)
  c("lsetfilecon", link, "system_u:object_r:lnk2_t:s0")
  c("lgetfilecon", link)
  c("getfilecon", f)
  c("lsetfilecon_raw", sub, "a:b:c")
  c("getfilecon", sub)
  c("setfilecon", File.join(d, "missing"), "a:b:c")
  c("lsetfilecon", dangling, "a:b:dangling_t")
  c("lgetfilecon", dangling)
  c("setfilecon", dangling, "a:b:c")
  c("setfilecon", nil, "a:b:c")
  File.open(g, "r+") do |io|
    call("fsetfilecon(fd of g)") { Selinux.fsetfilecon(io.fileno, "x:y:z:s0") }
    call("fgetfilecon(fd of g)") { Selinux.fgetfilecon(io.fileno) }
    call("fsetfilecon_raw(fd of g)") { Selinux.fsetfilecon_raw(io.fileno, "x:y:w") }
    call("fgetfilecon_raw(fd of g)") { Selinux.fgetfilecon_raw(io.fileno) }
  end
  c("fsetfilecon", -1, "a:b:c")
  c("getfilecon", g)
  out "labels: " + [f, g, link, dangling, sub].map { |p| xattr(p) }.join(" ")

  # wrong types: SWIG refuses them before any call
  c("getfilecon", 5)
  c("getfilecon", :sym)
  c("setfilecon", f, 7)
  c("getfilecon")
  c("getfilecon", f, f)
end

def process
  # No SELinux in this kernel: /proc/*/attr answers EINVAL for all.
  %w[getcon getcon_raw getprevcon getprevcon_raw getexeccon getexeccon_raw
     getfscreatecon getfscreatecon_raw getkeycreatecon getkeycreatecon_raw
     getsockcreatecon getsockcreatecon_raw].each { |fn| c(fn) }
  %w[setcon setcon_raw setexeccon setexeccon_raw setfscreatecon
     setfscreatecon_raw setkeycreatecon setkeycreatecon_raw setsockcreatecon
     setsockcreatecon_raw].each do |fn|
    c(fn, "system_u:system_r:init_t:s0")
    c(fn, nil)
  end
  call("getpidcon(self)") { Selinux.getpidcon(Process.pid) }
  call("getpidcon_raw(self)") { Selinux.getpidcon_raw(Process.pid) }
  c("getpidcon", 1)
  c("getpidcon", 0)
  c("getpidcon", -1)
  c("getpidcon", 2**32)
  c("getpidcon", 2**32 - 1)
  a, b = UNIXSocket.pair
  call("getpeercon(socketpair)") { Selinux.getpeercon(a.fileno) }
  call("getpeercon_raw(socketpair)") { Selinux.getpeercon_raw(b.fileno) }
  a.close
  b.close
  c("getpeercon", -1)
  File.open("/") { |io| call("getpeercon(dir fd)") { Selinux.getpeercon(io.fileno) } }
  c("fgetfilecon", 2**31)
end

PATH_FUNCS = %w[
  selinux_policy_root selinux_path selinux_current_policy_path
  selinux_binary_policy_path selinux_failsafe_context_path
  selinux_removable_context_path selinux_default_context_path
  selinux_user_contexts_path selinux_file_context_path
  selinux_file_context_homedir_path selinux_file_context_local_path
  selinux_file_context_subs_path selinux_file_context_subs_dist_path
  selinux_homedir_context_path selinux_media_context_path
  selinux_virtual_domain_context_path selinux_virtual_image_context_path
  selinux_lxc_contexts_path selinux_x_context_path
  selinux_sepgsql_context_path selinux_openrc_contexts_path
  selinux_openssh_contexts_path selinux_snapperd_contexts_path
  selinux_systemd_contexts_path selinux_contexts_path
  selinux_securetty_types_path selinux_booleans_subs_path
  selinux_booleans_path selinux_customizable_types_path selinux_users_path
  selinux_usersconf_path selinux_translations_path selinux_colors_path
  selinux_netfilter_context_path selinux_default_type_path
].freeze

def paths(pol)
  # With /etc/selinux bound to the fixture (the driver does it in a mount
  # namespace of its own) these read its config; otherwise the machine's,
  # the same for both extensions.
  c("selinux_getenforcemode")
  c("selinux_getpolicytype")
  PATH_FUNCS.each { |fn| c(fn) }
  c("selinux_set_policy_root", pol)
  PATH_FUNCS.each { |fn| c(fn) }
  c("selinux_getpolicytype")
  c("selinux_boolean_sub", "old_name")
  c("selinux_boolean_sub", "allow_ypbind")
  c("selinux_boolean_sub", "unchanged")
  c("selinux_boolean_sub", "")
  c("selinux_boolean_sub", nil)
  call("selinux_boolean_sub encoding") { Selinux.selinux_boolean_sub("x").encoding.to_s }
  call("selinux_policy_root encoding") { Selinux.selinux_policy_root.encoding.to_s }
  c("is_context_customizable", "u:object_r:customized_t:s0")
  c("is_context_customizable", "u:object_r:etc_t:s0")
  c("is_context_customizable", "bad")
end

def matchpathcon(pol)
  fc = File.join(pol, "contexts", "files", "file_contexts")
  keys = %w[fc fc/ fc/a fc/etc fc/etc/passwd fc/etc/shadow fc/etc/shadow/x
            fc/bin fc/bin/ls fc/dev/null fc/run/a.sock fc/run/fifo fc/lnk
            fc/none fc/none/deeper fc/home/joe fc/home/joe/x fc/x.y fc/xzy
            fc//etc fc/./etc alias alias/passwd elsewhere]
  keys = keys.map { |k| File.join(WORK, k) } + ["/", "", "relative"]
  c("matchpathcon_init", fc)
  keys.each { |k| MODES.each { |m| c("matchpathcon", k, m) } }
  c("matchpathcon_index", File.join(WORK, "fc/etc/shadow"), S_IFREG)
  c("matchpathcon_index", File.join(WORK, "fc/none"), 0)
  c("matchpathcon", File.join(WORK, "fc/a"), -1)
  c("matchpathcon", File.join(WORK, "fc/a"), 1.5)
  c("matchpathcon_fini")
  c("matchpathcon_init", File.join(WORK, "missing_fc"))
  c("matchpathcon_init_prefix", fc, File.join(WORK, "fc/etc"))
  keys[0, 8].each { |k| c("matchpathcon", k, S_IFREG) }
  c("matchpathcon_fini")
  # the default file_contexts of the policy root (set by paths())
  c("matchpathcon", File.join(WORK, "fc/bin/sh"), S_IFREG)
  c("matchpathcon_fini")
  c("set_matchpathcon_flags", Selinux::MATCHPATHCON_BASEONLY)
  c("matchpathcon", File.join(WORK, "fc/etc"), S_IFDIR)
  c("matchpathcon_fini")
  c("set_matchpathcon_flags", 0)
  c("set_matchpathcon_flags", -1)
  c("selinux_file_context_verify", "/nonexistent", 0)
  c("selinux_lsetfilecon_default", "/nonexistent")

  # selabel on the same file
  o = Selinux::Selinux_opt.new
  o.type = Selinux::SELABEL_OPT_PATH
  o.value = fc
  call("selinux_opt fields") { [o.type, o.value] }
  h = call("selabel_open(FILE, path opt, 1)") do
    Selinux.selabel_open(Selinux::SELABEL_CTX_FILE, o, 1)
  end
  if h
    keys.each do |k|
      [0, S_IFREG, S_IFDIR, S_IFLNK].each { |m| c("selabel_lookup", h, k, m) }
    end
    keys[0, 10].each do |k|
      c("selabel_lookup_raw", h, k, S_IFREG)
      c("selabel_lookup_best_match", h, k, S_IFREG)
      c("selabel_lookup_best_match_raw", h, k, 0)
    end
    %w[fc fc/etc fc/e other fc/none].each do |k|
      c("selabel_partial_match", h, File.join(WORK, k))
    end
    h2 = Selinux.selabel_open(Selinux::SELABEL_CTX_FILE, o, 1)
    c("selabel_cmp", h, h2)
    Selinux.selabel_close(h2)
    c("selabel_close", h)
  end
  call("selabel_open(FILE, nil, 0)") do
    Selinux.selabel_open(Selinux::SELABEL_CTX_FILE, nil, 0)
  end
  o.value = File.join(WORK, "missing_fc")
  call("selabel_open(FILE, missing)") do
    Selinux.selabel_open(Selinux::SELABEL_CTX_FILE, o, 1)
  end
  call("selabel_open(99)") { Selinux.selabel_open(99, nil, 0) }

  o.value = File.join(pol, "contexts", "files", "media")
  h = call("selabel_open(MEDIA)") do
    Selinux.selabel_open(Selinux::SELABEL_CTX_MEDIA, o, 1)
  end
  if h
    %w[cdrom disk floppy tape].each { |k| c("selabel_lookup", h, k, 0) }
    Selinux.selabel_close(h)
  end
  %w[cdrom disk tape].each { |k| c("matchmediacon", k) }
end

def contexts
  ["system_u:object_r:etc_t:s0", "u:r:t", "u:r:t:s0-s1:c0.c3", "bad", "a:b",
   "", "a::c", "a:b:c:"].each do |s|
    ctx = call("context_new(#{s.inspect})") { Selinux.context_new(s) }
    next unless ctx

    %w[context_str context_user_get context_role_get context_type_get
       context_range_get].each do |g|
      call("#{g}(#{s.inspect})") { Selinux.send(g, ctx) }
    end
    [["context_type_set", "new_t"], ["context_user_set", "new_u"],
     ["context_role_set", "new_r"], ["context_range_set", "s1"],
     ["context_range_set", nil], ["context_user_set", "bad:user"],
     ["context_type_set", "with space"], ["context_role_set", ""]].each do |setter, v|
      call("#{setter}(#{s.inspect}, #{v.inspect})") { Selinux.send(setter, ctx, v) }
      call("context_str after #{setter}") { Selinux.context_str(ctx) }
    end
    Selinux.context_free(ctx)
  end
  [%w[a:b:c a:b:c], %w[a:b:c a:b:d], %w[a:b:d a:b:c], %w[u1:r:t u2:r:t],
   %w[a:b:c:s0 a:b:c:s1], %w[x a:b:c], [nil, "a:b:c"]].each do |a, b|
    c("selinux_file_context_cmp", a, b)
  end
  ["u:r:t:s0", "u:r:t:s0-s15:c0.c1023", nil].each do |s|
    c("selinux_trans_to_raw_context", s)
    c("selinux_raw_to_trans_context", s)
    c("selinux_raw_context_to_color", s) if s
  end
end

def misc
  c("is_selinux_enabled")
  c("is_selinux_mls_enabled")
  c("selinuxfs_exists")
  c("security_getenforce")
  c("security_policyvers")
  c("security_check_context", "system_u:object_r:etc_t:s0")
  c("security_get_boolean_names")
  c("string_to_security_class", "file")
  c("string_to_security_class", nil)
  c("security_class_to_string", 6)
  c("security_class_to_string", 70000)
  c("security_class_to_string", -1)
  c("security_av_perm_to_string", 6, 4)
  c("string_to_av_perm", 6, "read")
  c("mode_to_security_class", S_IFREG)
  c("mode_to_security_class", -1)
  c("security_setenforce", 2**40)
  c("selinux_mkload_policy", 2**40)
  cb = call("selinux_get_callback(LOG)") do
    Selinux.selinux_get_callback(Selinux::SELINUX_CB_LOG)
  end
  if cb
    call("callback func_log is set") { !cb.func_log.nil? }
    call("selinux_set_callback(LOG, same)") do
      Selinux.selinux_set_callback(Selinux::SELINUX_CB_LOG, cb)
    end
  end
  cb = Selinux.selinux_get_callback(99)
  call("selinux_get_callback(99).func_log") { cb.func_log }
  call("selinux_set_callback(LOG, nil)") do
    Selinux.selinux_set_callback(Selinux::SELINUX_CB_LOG, nil)
  end
  a = Selinux::Av_decision.new
  call("Av_decision.new") do
    [a.allowed, a.decided, a.auditallow, a.auditdeny, a.seqno, a.flags]
  end
  call("Av_decision#allowed = -1") { a.allowed = -1 }
  call("Av_decision#allowed = 2**32") { a.allowed = 2**32 }
  call("Av_decision#allowed = 'x'") { a.allowed = "x" }
  a.allowed = 0xffffffff
  call("Av_decision#allowed") { a.allowed }
  call("Av_decision.new(1)") { Selinux::Av_decision.new(1) }
  b = Selinux::SELboolean.new
  call("SELboolean.new") { [b.name, b.value] }
  b.name = "bool"
  b.value = -3
  call("SELboolean set") { [b.name, b.value] }
  call("SELboolean#value = 2**40") { b.value = 2**40 }
  o = Selinux::Selinux_opt.new
  call("Selinux_opt.new") { [o.type, o.value] }
  o.type = -1
  call("Selinux_opt#type = -1") { o.type }
  call("Selinux_opt#value = 5") { o.value = 5 }
  m = Selinux::Security_class_mapping.new
  call("Security_class_mapping.new") { [m.name, m.perms] }
  call("Context_s_t.new.ptr") { Selinux::Context_s_t.new.ptr }
  call("Avc_entry_ref.new.ae") { Selinux::Avc_entry_ref.new.ae }
  call("Security_id.new") { [Selinux::Security_id.new.ctx, Selinux::Security_id.new.refcnt] }
  call("Dir_xattr.new") do
    x = Selinux::Dir_xattr.new
    [x.directory, x.digest, x.result, x.next]
  end
  call("Avc_cache_stats.new") { Selinux::Avc_cache_stats.new.entry_lookups }
  c("realpath_not_final", "/etc/passwd", "x" * 100)
  c("realpath_not_final", "/nonexistent/x", "")
  c("realpath_not_final", "/etc/passwd", 5)
  c("selinux_set_mapping", nil)
  c("security_load_booleans", nil)
  c("security_load_policy", "abc", 3)
  c("selinux_restorecon_set_exclude_list")
  c("selinux_restorecon_set_exclude_list", nil)
  c("selinux_restorecon", "/nonexistent", 0)
  c("selinux_restorecon_get_skipped_errors")
  c("selinux_restorecon_xattr", "/nonexistent", 0, nil)
  c("matchpathcon_filespec_destroy")
  c("selinux_check_access", "a:b:c", "a:b:c", "file", "read")
  c("selinux_check_access", "a:b:c", "a:b:c", "file", "read", "x")
  c("avc_has_perm", nil, nil, 1, 1, nil)
  c("selabel_digest", nil)
  c("getseuserbyname", 5)
end

def local
  pol = File.join(WORK, "etc", "selinux", "fixture")
  files
  process
  paths(pol)
  matchpathcon(pol)
  contexts
  misc
end

# ---------------------------------------------------------------------
# server
# ---------------------------------------------------------------------

CONTEXTS = %w[system_u:system_r:sshd_t system_u:object_r:etc_t
              system_u:object_r:tmp_t user_u:user_r:user_t
              system_u:system_r:init_t staff_u:staff_r:staff_t
              staff_u:sysadm_r:sysadm_t unconfined_u:unconfined_r:unconfined_t
              system_u:object_r:shadow_t user_u:object_r:user_home_t
              system_u:object_r:sshd_exec_t system_u:object_r:security_t].freeze

def av(label)
  a = Selinux::Av_decision.new
  r = call(label) { yield a }
  return if r.nil?

  out format("  avd %x %x %x %x seqno=%d flags=%d", a.allowed, a.decided,
             a.auditallow, a.auditdeny, a.seqno, a.flags)
end

def server
  call("set_selinuxmnt($SELINUXFS_MNT)") { Selinux.set_selinuxmnt(ENV.fetch("SELINUXFS_MNT")) }
  # the MLS policy's contexts carry a level
  lv = Selinux.is_selinux_mls_enabled == 1 ? ":s0" : ""
  ctxs = CONTEXTS.map { |x| x + lv }
  sshd, etc, tmp, user = ctxs
  %w[is_selinux_enabled is_selinux_mls_enabled selinuxfs_exists
     security_getenforce security_policyvers security_deny_unknown
     security_reject_unknown security_get_checkreqprot].each { |fn| c(fn) }

  ["file", "dir", "process", "security", "lnk_file", "unix_stream_socket",
   "tun_socket", "nosuchclass", ""].each { |cl| c("string_to_security_class", cl) }
  (0...12).each { |n| c("security_class_to_string", n) }
  file_c = Selinux.string_to_security_class("file")
  proc_c = Selinux.string_to_security_class("process")
  %w[read write execute entrypoint nosuchperm].each do |p|
    c("string_to_av_perm", file_c, p)
  end
  (0...24).each { |bit| c("security_av_perm_to_string", file_c, 1 << bit) }
  [0, 1, 6, 0xffff, 0xffffffff].each do |v|
    c("security_av_string", file_c, v)
    c("security_av_string", proc_c, v)
  end
  [S_IFREG, S_IFDIR, S_IFLNK, S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK, 0].each do |m|
    c("mode_to_security_class", m)
  end
  call("print_access_vector(file, 0x6)") { Selinux.print_access_vector(file_c, 6) }

  (ctxs + ["bad", "system_u:object_r:nosuch_t", "", "user_u:object_r:etc_t",
           "system_u:object_r:etc_t:s0"]).each do |s|
    c("security_check_context", s)
    c("security_check_context_raw", s)
    c("security_check_context", s + ":s0-s2:c0.c3")
    c("security_canonicalize_context", s)
    c("security_canonicalize_context_raw", s)
  end

  [sshd, user, ctxs[5]].each do |s|
    ctxs.each do |t|
      %w[file process dir security].each do |cl|
        k = Selinux.string_to_security_class(cl)
        lab = "(#{s}, #{t}, #{cl})"
        av("security_compute_av" + lab) do |a|
          Selinux.security_compute_av(s, t, k, 0xffffffff, a)
        end
        av("security_compute_av_flags" + lab) do |a|
          Selinux.security_compute_av_flags(s, t, k, 0xffffffff, a)
        end
        c("security_compute_create", s, t, k)
        c("security_compute_relabel", s, t, k)
        c("security_compute_member", s, t, k)
      end
    end
  end
  av("security_compute_av_raw") { |a| Selinux.security_compute_av_raw(sshd, etc, file_c, 2, a) }
  av("security_compute_av_flags_raw") do |a|
    Selinux.security_compute_av_flags_raw(sshd, etc, file_c, 2, a)
  end
  av("security_compute_av(bad)") { |a| Selinux.security_compute_av("bad", etc, file_c, 2, a) }
  av("security_compute_av(class 0)") { |a| Selinux.security_compute_av(sshd, etc, 0, 2, a) }
  ["sshd.pid", "other.pid", ""].each do |name|
    c("security_compute_create_name", sshd, tmp, file_c, name)
    c("security_compute_create_name_raw", sshd, tmp, file_c, name)
  end
  c("security_compute_create_raw", sshd, tmp, file_c)
  c("security_compute_relabel_raw", user, "user_u:object_r:tty_t" + lv, file_c)
  c("security_compute_member_raw", sshd, tmp, file_c)
  c("security_compute_create", "bad", tmp, file_c)
  %w[root user_u staff_u unconfined_u system_u nosuch].each do |u|
    c("security_compute_user", sshd, u)
    c("security_compute_user_raw", sshd, u)
  end
  c("security_compute_user", "bad", "root")
  [[etc, etc, file_c, etc], [user, etc, file_c, tmp],
   ["bad", etc, file_c, etc]].each do |args|
    c("security_validatetrans", *args)
    c("security_validatetrans_raw", *args)
  end
  ["kernel", "security", "unlabeled", "file", "nosuch", ""].each do |n|
    c("security_get_initial_context", n)
    c("security_get_initial_context_raw", n)
  end

  c("security_get_boolean_names")
  %w[ssh_sysadm_login allow_user_exec_tmp nosuch].each do |b|
    c("security_get_boolean_active", b)
    c("security_get_boolean_pending", b)
  end
  c("security_set_boolean", "ssh_sysadm_login", 1)
  c("security_get_boolean_pending", "ssh_sysadm_login")
  c("security_get_boolean_active", "ssh_sysadm_login")
  c("security_commit_booleans")
  c("security_get_boolean_active", "ssh_sysadm_login")
  c("security_get_boolean_pending", "ssh_sysadm_login")
  c("security_set_boolean", "nosuch", 1)
  b = Selinux::SELboolean.new
  b.name = "allow_user_exec_tmp"
  b.value = 0
  call("security_set_boolean_list(allow_user_exec_tmp=0)") do
    Selinux.security_set_boolean_list(1, b, 0)
  end
  c("security_get_boolean_active", "allow_user_exec_tmp")
  av("security_compute_av(user_t exec user_tmp_t)") do |a|
    Selinux.security_compute_av(user, "user_u:object_r:user_tmp_t" + lv,
                                file_c, 0xffffffff, a)
  end
  b.name = "nosuch"
  call("security_set_boolean_list(nosuch)") { Selinux.security_set_boolean_list(1, b, 0) }

  c("security_setenforce", 1)
  c("security_getenforce")
  av("security_compute_av(enforcing)") do |a|
    Selinux.security_compute_av(sshd, etc, file_c, 0xffffffff, a)
  end
  c("security_setenforce", 0)
  c("security_getenforce")
  c("security_setenforce", 2)
  c("security_getenforce")
  c("selinux_flush_class_cache")
  c("string_to_security_class", "file")
  avc(ctxs, file_c)
end

# The userspace AVC and the status page on the same server.
def avc(ctxs, file_c)
  c("selinux_status_open", 0)
  %w[selinux_status_updated selinux_status_getenforce
     selinux_status_policyload selinux_status_deny_unknown].each { |fn| c(fn) }
  call("avc_open(nil, 0)") { Selinux.avc_open(nil, 0) }
  sids = (ctxs + ["bad"]).map do |x|
    r = call("avc_context_to_sid(#{x.inspect})") { Selinux.avc_context_to_sid(x) }
    r.is_a?(Array) ? r[1] : nil
  end
  ctxs.zip(sids).each do |x, s|
    next unless s

    # refcnt: 1 in 3.4, the SID's number in 3.8 and later; never 0
    # while the SID is valid.
    call("Security_id(#{x.inspect}) fields") { [s.ctx, s.refcnt > 0] }
    call("avc_sid_to_context(#{x.inspect})") { Selinux.avc_sid_to_context(s) }
    call("avc_sid_to_context_raw(#{x.inspect})") { Selinux.avc_sid_to_context_raw(s) }
  end
  %w[kernel security].each do |n|
    r = call("avc_get_initial_sid(#{n.inspect})") { Selinux.avc_get_initial_sid(n) }
    call("  its context") { Selinux.avc_sid_to_context(r[1]) } if r.is_a?(Array)
  end
  # On failure Debian's extension appends its uninitialised SID variable
  # (a wild pointer): only the result is compared.
  call("avc_get_initial_sid(\"nosuch\")[0]") { Selinux.avc_get_initial_sid("nosuch")[0] }
  ae = Selinux::Avc_entry_ref.new
  call("Avc_entry_ref.new.ae") { ae.ae }
  proc_c = Selinux.string_to_security_class("process")
  sids[0, 4].each_with_index do |s, i|
    sids.each_with_index do |t, j|
      next if s.nil? || t.nil?

      [[file_c, 0x2], [file_c, 0x4], [proc_c, 0x1], [file_c, 0]].each do |k, req|
        lab = format("(%d, %d, %d, %#x)", i, j, k, req)
        call("avc_has_perm" + lab) { Selinux.avc_has_perm(s, t, k, req, ae, nil) }
        call("avc_has_perm(no aeref)" + lab) { Selinux.avc_has_perm(s, t, k, req, nil, nil) }
        a = Selinux::Av_decision.new
        call("avc_has_perm_noaudit" + lab) do
          Selinux.avc_has_perm_noaudit(s, t, k, req, nil, a)
        end
        out format("  avd %x %x %x", a.allowed, a.decided, a.auditallow)
        call("avc_compute_create" + lab) { Selinux.avc_compute_create(s, t, k) }
        call("avc_compute_member" + lab) { Selinux.avc_compute_member(s, t, k) }
      end
    end
  end
  [[ctxs[0], ctxs[1], "file", "read"], [ctxs[0], ctxs[1], "file", "write"],
   [ctxs[3], ctxs[8], "file", "read"], [ctxs[0], ctxs[1], "nosuch", "read"],
   [ctxs[0], ctxs[1], "file", "nosuch"], ["bad", ctxs[1], "file", "read"]].each do |args|
    c("selinux_check_access", *args, nil)
  end
  c("selinux_check_passwd_access", 1)
  c("checkPasswdAccess", 2)
  call("sidget") { Selinux.sidget(sids[0]) }
  call("sidput") { Selinux.sidput(sids[0]) }
  c("security_setenforce", 1)
  c("selinux_status_updated")
  c("selinux_status_getenforce")
  c("selinux_status_updated")
  [[ctxs[3], ctxs[8], "file", "read"], [ctxs[0], ctxs[1], "file", "read"]].each do |args|
    c("selinux_check_access", *args, nil)
  end
  c("security_setenforce", 0)
  c("avc_reset")
  c("avc_cleanup")
  c("selinux_status_close")
  c("avc_destroy")
end

case SECTION
when "interface" then interface
when "local" then local
when "server" then server
else abort "usage: ruby_calls.rb interface|local|server WORKDIR"
end
