# Issue 35: apt-get install --reinstall of the policy package (its .deb
# brought in the bundle: the guest is offline), whose postinst runs
# semodule on every module and which triggers selinux-utils' file
# trigger in our boot: the changes made before are still answered, from
# the image in our boot (see p1/85-index.sh).
. $S/lib.sh
. $S/index-lib.sh
if [ -f $S/policy.deb ]; then
	cp $S/policy.deb /tmp/selinux-policy-default.deb
	step "apt-get install --reinstall" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends --reinstall \
		/tmp/selinux-policy-default.deb
else
	answers="apt-get install --reinstall: no policy package in the bundle
"
fi
probe "apt-get install --reinstall" /srv/web/x
report_index policy-index
