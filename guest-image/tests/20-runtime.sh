# boots: main
# Runtime writes take effect at once, jiffies_to_sched_qs follows, 'auto'
# brings the computed value back; the limit takes its whole range.
. "$RCUQS_LIB/lib.sh"

boot_to=$(param jiffies_to_sched_qs)
max=$(sched_qs_max)
diag "at boot: jiffies_to_sched_qs=$boot_to; stall timeout $(cat /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout) s, HZ=$HZ: max $max"

for v in 50 1 "7
" $max 25 3; do
	setp jiffies_till_sched_qs "$v"
	v=${v%$'\n'}
	is "$(param jiffies_till_sched_qs)" "$v" "jiffies_till_sched_qs=$v reads back"
	is "$(param jiffies_to_sched_qs)" "$v" "jiffies_to_sched_qs follows to $v"
done

setp jiffies_till_sched_qs auto
is "$(param jiffies_to_sched_qs)" "$boot_to" "'auto' restores the computed value $boot_to"
is "$(param jiffies_till_sched_qs)" auto "jiffies_till_sched_qs reads 'auto' after 'auto'"
setp jiffies_till_sched_qs 40
setp jiffies_till_sched_qs "auto
"
is "$(param jiffies_to_sched_qs)" "$boot_to" "'auto' with a newline (echo) works too"
# ULONG_MAX is what reads showed for the computed default before 'auto':
# written back, it means 'auto'.
setp jiffies_till_sched_qs 40
setp jiffies_till_sched_qs 18446744073709551615
is "$(param jiffies_till_sched_qs)/$(param jiffies_to_sched_qs)" "auto/$boot_to" \
	"18446744073709551615 (ULONG_MAX, the old read of the default) means 'auto'"
# Runtime writes, 'auto' included, log nothing (rcutorture makes hundreds).
n0=$(dmesg | grep -c 'scheduler-enlistment delay')
for i in 1 2 3 4 5 6 7 8; do
	setp jiffies_till_sched_qs 30
	setp jiffies_till_sched_qs auto
done
is "$(dmesg | grep -c 'scheduler-enlistment delay')" "$n0" "eight runtime writes of 'auto' log nothing"

# 'auto' means computed from the fqs timeouts: jiffies_till_first_fqs +
# 2 * jiffies_till_next_fqs, floored at HZ/10 + nr_cpu_ids/256.
first=$(param jiffies_till_first_fqs)
next=$(param jiffies_till_next_fqs)
ncpu=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)
floor=$((HZ / 10 + ncpu / 256))
setp jiffies_till_next_fqs 40
want=$((first + 2 * 40))
[ $want -lt $floor ] && want=$floor
is "$(param jiffies_to_sched_qs)" "$want" "with 'auto', jiffies_to_sched_qs follows jiffies_till_next_fqs (first $first + 2 * 40)"
setp jiffies_till_sched_qs 30
setp jiffies_till_next_fqs 50
is "$(param jiffies_to_sched_qs)" 30 "an explicit value stays in force when jiffies_till_next_fqs changes"
setp jiffies_till_next_fqs "$next"
setp jiffies_till_sched_qs auto
is "$(param jiffies_to_sched_qs)" "$boot_to" "back to the boot value after restoring jiffies_till_next_fqs=$next"

if has_limit; then
	for v in 0 1 1048576 256 "100
" 0; do
		setp cond_resched_qs_limit "$v"
		v=${v%$'\n'}
		is "$(param cond_resched_qs_limit)" "$v" "cond_resched_qs_limit=$v reads back"
	done
else
	no_limit_skip "cond_resched_qs_limit takes its whole range at runtime"
	# 7.3: jiffies_till_nohz_qs, 0 to the bound of jiffies_till_sched_qs.
	for v in 1 "$(sched_qs_max)" 25 "3
" 0; do
		setp jiffies_till_nohz_qs "$v"
		v=${v%$'\n'}
		is "$(param jiffies_till_nohz_qs)" "$v" "jiffies_till_nohz_qs=$v reads back"
	done
fi
