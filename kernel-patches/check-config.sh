#!/bin/sh
# check-config.sh CONFIG FRAGMENT...: fail when an option a fragment asks
# for did not end up in CONFIG as asked (merge_config.sh only warns).
set -eu
cfg=$1
shift
bad=0
for frag in "$@"; do
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)/\1 \2/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1 n/p' "$frag" |
	while read -r sym want; do
		got=$(sed -n -e "s/^$sym=\(.*\)/\1/p" \
			-e "s/^# $sym is not set/n/p" "$cfg")
		[ -n "$got" ] || got=n
		if [ "$got" != "$want" ]; then
			echo "check-config: $sym: asked $want in $(basename "$frag"), got $got" >&2
			echo bad
		fi
	done
done | grep -q bad && bad=1
if [ "$bad" = 1 ]; then
	echo "check-config: $cfg does not match the fragments" >&2
	exit 1
fi
exit 0
