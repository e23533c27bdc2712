# 8. mcstransd running: the plain calls print translated levels, the _raw
# ones do not.
. $S/lib.sh
value mcstrans-active "$(systemctl is-active mcstrans.service)"
value mcstrans-ls "$(ls -Z /etc/hostname)"
value mcstrans-id-bob "$(ssh_as bob 'id -Z')"
value mcstrans-raw "$(python3 -c 'import os; print(os.getxattr("/etc/hostname", "security.selinux").rstrip(b"\0").decode())')"
value mcstrans-matchpathcon "$(matchpathcon /etc/hostname)"
