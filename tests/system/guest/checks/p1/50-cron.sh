# 6. cron: the context of a system crontab's job and of a user's
# (/etc/cron.d/systest and alice's crontab run every minute); su and
# runuser through PAM; runcon and chcon.
. $S/lib.sh
sys=/var/tmp/systest-cron-system user=/home/alice/systest-cron-user
# Up to 300 s: under TCG with two guests at once a boot has taken 370 s,
# and once the reference's system job had not run after 150.
i=0
while [ $i -lt 300 ] && ! { [ -s $sys ] && [ -s $user ]; }; do
	sleep 2
	i=$((i + 2))
done
value cron-system-job "$(cat $sys 2>&1)"
value cron-user-job "$(cat $user 2>&1)"
# No job may run after this one: what a job does (its AVC denials) must
# not depend on when a later check happens to cross a minute.  cron
# rereads changed crontabs before it runs the next minute's jobs.
crontab -r -u alice
rm -f /etc/cron.d/systest
journalctl -b -u cron.service -o cat | sed 's/^/@@INFO cron: /'
value su-alice "$(su -s /bin/sh -c 'id -Z' alice 2>&1)"
value runuser-bob "$(runuser -u bob -- id -Z 2>&1)"
value runcon-type "$(runcon -t unconfined_t -- id -Z 2>&1)"
value runcon-bad "$(runcon -t no_such_t -- id -Z 2>&1; echo "exit $?")"
f=/var/tmp/systest-chcon
rm -f $f && touch $f
chcon -t user_tmp_t $f
chcon -u system_u $f
value chcon "$(ls -Z $f) $(chcon -t no_such_t $f 2>&1; echo "exit $?")"
rm -f $f
