#!/bin/sh
# check-config.sh CONFIG FRAGMENT...: fail when an option a fragment asks
# for did not end up in CONFIG as asked (merge_config.sh only warns).
# As in merge_config.sh, a later fragment overrides an earlier one: the
# last value asked for a symbol is the one checked (a baseline fragment
# such as config/base-7.3.config can so take back an option common.config
# asks for under a name that baseline no longer has).
set -eu
cfg=$1
shift
bad=0
tab=$(printf '\t')
awk '
/^CONFIG_[A-Za-z0-9_]*=/ {
	i = index($0, "=")
	sym = substr($0, 1, i - 1); val = substr($0, i + 1)
}
/^# CONFIG_[A-Za-z0-9_]* is not set/ { sym = $2; val = "n" }
sym != "" {
	if (!(sym in want)) order[++n] = sym
	want[sym] = val; from[sym] = FILENAME; sym = ""
}
END { for (k = 1; k <= n; k++) printf "%s\t%s\t%s\n", from[order[k]], order[k], want[order[k]] }
' "$@" |
while IFS="$tab" read -r frag sym want; do
	got=$(sed -n -e "s/^$sym=\(.*\)/\1/p" \
		-e "s/^# $sym is not set/n/p" "$cfg")
	[ -n "$got" ] || got=n
	if [ "$got" != "$want" ]; then
		echo "check-config: $sym: asked $want in $(basename "$frag"), got $got" >&2
		echo bad
	fi
done | grep -q bad && bad=1
if [ "$bad" = 1 ]; then
	echo "check-config: $cfg does not match the fragments" >&2
	exit 1
fi
exit 0
