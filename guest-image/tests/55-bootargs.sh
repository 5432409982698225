# boots: bootargs-latency bootargs-throughput bootargs-linux-3.16 torture
# The boot form round trip: the kernel command line carries what
# "rcuqs-ctl boot-args P" printed on the host (check-guest.sh), the
# profile P is recorded as active (rcuqs.test_active=P) and rcuqs.service
# is masked (systemd.mask=), so nothing writes a tunable at runtime: the
# command line alone must satisfy "rcuqs-ctl verify". Runs first in the
# boot, before anything else could write.
. "$RCUQS_LIB/lib.sh"

p=$(cmdline_arg rcuqs.test_active)
check "a profile is named (rcuqs.test_active=$p)" test -n "$p"
# Right after boot, before anything else runs.
out=$(rcuqs-ctl verify 2>&1)
is "$?" 0 "boot-args $p on the command line, no runtime write: verify exits 0 ($out)"
sysfs_matches "$p" "boot-args $p on the command line"
is "$(unit_prop rcuqs.service LoadState)" masked "rcuqs.service is masked in this boot"
is "$(unit_prop rcuqs.service ActiveState)" inactive "rcuqs.service did not run"
is "$(unit_prop rcuqs.service ExecMainStartTimestampMonotonic)" 0 "rcuqs.service never started"
is "$(rd /etc/rcuqs/active)" "$p" "/etc/rcuqs/active names $p (rcuqs-test-active.service)"
# The guest's own tool prints the same form, and the command line holds it.
form=$(rcuqs-ctl boot-args "$p" 2>&1)
cmd=" $(cat /proc/cmdline) "
holds_all() {	# holds_all WORDS: every word is on the command line
	local w
	[ -n "$1" ] || return 1
	for w in $1; do [[ $cmd == *" $w "* ]] || return 1; done
}
check "the command line holds what the guest's rcuqs-ctl boot-args $p prints: '$form'" \
	holds_all "$form"
for w in $(cat /proc/cmdline); do
	case $w in rcutree.* | rcupdate.*)
		check "command-line $w is part of boot-args $p" eval '[[ " $form " == *" $w "* ]]' ;;
	esac
done
