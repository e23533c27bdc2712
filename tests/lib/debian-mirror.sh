#!/bin/sh
# tests/lib/debian-mirror.sh - print the host's own Debian mirror (deb822
# sources first, then sources.list), the one debootstrap takes for the
# test roots and images; exit 1 when /etc/apt names none.
mirror=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' \
	/etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $0 !~ /security/ \
	{for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) {print $i; exit}}' \
	/etc/apt/sources.list 2>/dev/null || true)
[ -n "$mirror" ] || exit 1
echo "$mirror"
