# boots: main cmdline
# The parameters and counters exist with the intended modes; values given
# on the kernel command line show in sysfs; counters cannot be written.
. "$RCUQS_LIB/lib.sh"

mode_is() {	# FILE MODE
	local got
	got=$(stat -c %a "$1" 2>/dev/null) || got=missing
	is "$got" "$2" "$1 exists with mode $2"
}

mode_is $P/jiffies_till_sched_qs 644
if has_limit; then
	mode_is $P/cond_resched_qs_limit 644
else
	no_limit_skip "$P/cond_resched_qs_limit exists with mode 644"
	mode_is $P/jiffies_till_nohz_qs 644
fi
mode_is $P/jiffies_to_sched_qs 444
check "$Q is a directory" test -d $Q
for c in $COUNTERS; do
	mode_is $Q/$c 444
	v=$(counter $c)
	check "$c reads as a decimal number ('$v')" eval '[[ $v =~ ^[0-9]+$ ]]'
	out=$(swrite $Q/$c 0)
	is "${out%% *}" EACCES "$c refuses a write ($out)"
done
diag "files in $Q: $(ls $Q 2>&1 | tr '\n' ' ')"
extra=$(ls $Q 2>/dev/null | grep -vxE "${COUNTERS// /|}" | tr '\n' ' ')
is "$extra" "" "$Q holds only the documented counters"

j=$(param jiffies_till_sched_qs)
l=$(param cond_resched_qs_limit)
t=$(param jiffies_to_sched_qs)
diag "jiffies_till_sched_qs=$j jiffies_to_sched_qs=$t cond_resched_qs_limit=$l"

# The computed delay is logged at boot, never a wrapped one computed from
# FQS delays not yet initialized (a command-line "auto"), and only once.
mapfile -t logged < <(dmesg | sed -n 's/.*scheduler-enlistment delay is \(.*\) jiffies.*/\1/p')
bad=0
for x in "${logged[@]}"; do
	[[ $x =~ ^[0-9]+$ ]] && [ "$x" -ge 1 ] && [ "$x" -le $((10 * HZ)) ] || bad=1
done
is "$bad" 0 "every computed delay the boot logged is a sane number of jiffies (${logged[*]:-none})"
check "the computed delay is logged at most once at boot (${#logged[@]})" test "${#logged[@]}" -le 1
if grep -qw rcutree.jiffies_till_sched_qs=0 /proc/cmdline; then
	check "rcutree.jiffies_till_sched_qs=0 on the command line is refused with a message" \
		eval 'dmesg | grep -q "rcutree.jiffies_till_sched_qs=0 ignored"'
fi

if cj=$(cmdline_arg rcutree.jiffies_till_sched_qs); then
	is "$j" "$cj" "jiffies_till_sched_qs shows the command-line value $cj"
	is "$t" "$cj" "jiffies_to_sched_qs is in force at the command-line value $cj"
else
	# Unset: the computed value is in force, as the boot log says.
	boot=$(dmesg | sed -n 's/.*scheduler-enlistment delay is \([0-9]*\) jiffies.*/\1/p' | head -1)
	is "$t" "$boot" "jiffies_to_sched_qs is the computed value of the boot log ($boot)"
	is "$j" auto "jiffies_till_sched_qs reads 'auto' when not set"
fi
if ! has_limit; then
	no_limit_skip "cond_resched_qs_limit shows the command-line value or 0"
elif cl=$(cmdline_arg rcutree.cond_resched_qs_limit); then
	is "$l" "$cl" "cond_resched_qs_limit shows the command-line value $cl"
else
	is "$l" 0 "cond_resched_qs_limit is 0 (off) by default"
fi
