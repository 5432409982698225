# boots: main
# rcuqs-ctl on the real kernel, installed as an administrator installs it
# (the .deb's contents, rcuqs.service enabled from [Install]): with no
# recorded profile rcuqs.service is skipped, not failed; set-profile to
# every shipped profile, each verified and read back from sysfs; the
# template unit switches too; status shows the counters moving under the
# rcuqs_loop module as the profile predicts; params shows the kernel's own
# descriptions; a switch restores what the previous profile set, and
# 'off' undoes everything.
. "$RCUQS_LIB/lib.sh"

# The package is in place.
for f in /usr/sbin/rcuqs-ctl /usr/lib/systemd/system/rcuqs.service \
	/usr/lib/systemd/system/rcuqs-profile@.service /usr/share/man/man8/rcuqs-ctl.8.gz \
	/usr/share/man/man5/rcuqs.profile.5.gz /usr/share/man/man7/rcuqs.7.gz \
	/usr/share/doc/rcuqs/copyright; do
	check "installed: $f" test -s $f
done
check "profiles installed: $(shipped_profiles | tr '\n' ' ')" test -s $PROFILES/default.profile
is "$(systemctl is-enabled rcuqs.service 2>&1)" enabled "rcuqs.service is enabled"
link=/etc/systemd/system/sysinit.target.wants/rcuqs.service
check "enabled from [Install]: $(stat -c %N $link 2>&1)" \
	eval '[ -L $link ] && [ $link -ef /usr/lib/systemd/system/rcuqs.service ]'
out=$(rcuqs-ctl --version 2>&1)
check "rcuqs-ctl runs in the guest (libkmod found): $out" test -n "$out"

# The values before rcuqs first writes anything ('off' must restore them).
second=$(knob2)
boot_limit=$(param $second) boot_jtsq=$(param jiffies_till_sched_qs)
boot_fqs=$(param jiffies_till_next_fqs)
boot_stall=$(cat /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout)

# No recorded profile: skipped by its condition, not failed.
check "no /etc/rcuqs/active in this boot" test ! -e /etc/rcuqs/active
is "$(unit_prop rcuqs.service ConditionResult)" no "rcuqs.service: ConditionResult=no"
is "$(unit_prop rcuqs.service ActiveState)" inactive "rcuqs.service: ActiveState=inactive (skipped)"
is "$(unit_prop rcuqs.service Result)" success "rcuqs.service: Result=success, not failed"
check "rcuqs.service is not failed" eval '! systemctl is-failed --quiet rcuqs.service'
diag "$(systemctl status rcuqs.service 2>&1 | head -6)"
is "$(param jiffies_till_sched_qs) $(param $second)" "auto 0" \
	"kernel defaults in force, nothing applied"

# Runtime: every shipped profile in turn, then back to the first.
profiles=$(shipped_profiles)
for p in $profiles $(shipped_profiles | head -1); do
	out=$(rcuqs-ctl set-profile "$p" 2>&1)
	is "$?" 0 "set-profile $p exits 0"
	diag "$out"
	out=$(rcuqs-ctl verify 2>&1)
	is "$?" 0 "verify after set-profile $p exits 0 ($out)"
	sysfs_matches "$p" "after set-profile $p"
	is "$(rd /etc/rcuqs/active)" "$p" "/etc/rcuqs/active names $p"
done

# The template unit switches, including away from and back to a profile.
for p in latency throughput; do
	out=$(systemctl start "rcuqs-profile@$p.service" 2>&1)
	is "$?" 0 "systemctl start rcuqs-profile@$p.service exits 0 $out"
	[ -z "$out" ] || diag "$(journalctl -b --no-pager -o cat -u "rcuqs-profile@$p.service" | tail -8)"
	sysfs_matches "$p" "after rcuqs-profile@$p.service"
	is "$(rd /etc/rcuqs/active)" "$p" "/etc/rcuqs/active names $p"
	out=$(rcuqs-ctl verify 2>&1)
	is "$?" 0 "verify after rcuqs-profile@$p.service exits 0"
done
is "$(unit_prop rcuqs-profile@throughput.service Result)" success \
	"rcuqs-profile@throughput.service: Result=success"

# status and status --json under the rcuqs_loop module: a one-second
# cond_resched() loop on CPU 1 with synchronize_rcu() load. limit_qs grows
# only when the profile sets a limit; grace periods complete either way.
cpu=1
[ "$(cat /sys/devices/system/cpu/online)" = 0 ] && cpu=0
declare -A jd td
status_counts() {	# status_counts ARRAY: limit_qs and gp_completed, JSON then text
	local -n _a=$1
	local j t
	j=$(rcuqs-ctl --json status)
	t=$(rcuqs-ctl status)
	_a[jl]=$(json_num "$j" limit_qs) _a[jg]=$(json_num "$j" gp_completed)
	_a[tl]=$(sed -n 's/^limit_qs  *\([0-9]*\)$/\1/p' <<<"$t")
	_a[tg]=$(sed -n 's/^gp_completed  *\([0-9]*\)$/\1/p' <<<"$t")
}
for p in throughput latency; do
	rcuqs-ctl set-profile "$p" >/dev/null 2>&1 || nok "set-profile $p"
	status_counts jd
	loop loops=0 ms=1000 cpu=$cpu gp_load=1
	status_counts td
	dl=$((td[jl] - jd[jl])) dg=$((td[jg] - jd[jg]))
	tl=$((td[tl] - jd[tl])) tg=$((td[tg] - jd[tg]))
	diag "$p: status --json: limit_qs +$dl gp_completed +$dg;" \
		"status: limit_qs +$tl gp_completed +$tg; sysfs: limit_qs +${d[limit_qs]}" \
		"loop: $r_loops cond_resched() calls on CPU $cpu, $r_gps synchronize_rcu()"
	check "$p: status --json: gp_completed grows under the loop (+$dg)" test "$dg" -gt 0
	check "$p: status: gp_completed grows under the loop (+$tg)" test "$tg" -gt 0
	pv=()
	profile_load "$p"
	if ! has_limit; then
		no_limit_skip "$p: limit_qs in status"
	elif [ "${pv[rcutree.cond_resched_qs_limit]:-0}" = 0 ]; then
		is "$dl" 0 "$p (no limit): status --json: limit_qs does not move"
		is "$tl" 0 "$p (no limit): status: limit_qs does not move"
	else
		n=${pv[rcutree.cond_resched_qs_limit]}
		# At least the loop's own calls / limit, less one.
		between "$dl" $((r_loops / n - 1)) 999999999 \
			"$p (limit $n): status --json: limit_qs grows by at least $r_loops/$n"
		between "$tl" $((r_loops / n - 1)) 999999999 \
			"$p (limit $n): status: limit_qs grows by at least $r_loops/$n"
	fi
done

# params: the kernel's own descriptions (MODULE_PARM_DESC, built-in:
# tree.parm= in modules.builtin.modinfo), as rcuqs-ctl shows them.
keys=$(tr '\0' '\n' </lib/modules/"$(uname -r)"/modules.builtin.modinfo)
out=$(rcuqs-ctl params 2>&1)
json=$(rcuqs-ctl --json params 2>&1)
for p in jiffies_till_sched_qs cond_resched_qs_limit jiffies_till_nohz_qs; do
	[ -e "$P/$p" ] || continue
	kdesc=$(sed -n "s/^tree\.parm=$p://p" <<<"$keys")
	check "params shows the kernel's description of $p: '$kdesc'" \
		eval '[ -n "$kdesc" ] && grep -F "rcutree.$p" <<<"$out" | grep -qF -- "$kdesc"'
	check "params --json carries it too" eval 'grep -qF -- "\"description\":\"$kdesc\"" <<<"$json"'
done
diag "$out"
diag "params --json description_from: $(grep -o '"description_from":"[^"]*"' <<<"$json" | tr '\n' ' ')"

# Switching restores what the previous profile set and the next does not;
# 'off' puts every parameter back to its value before rcuqs and removes
# the record and boot form, on the real kernel.
stall=/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
orig_stall=$(cat $stall) orig_fqs=$(param jiffies_till_next_fqs)
mkdir -p /etc/rcuqs/profiles
printf 'include=latency\nrcupdate.rcu_cpu_stall_timeout=%s\n' $((orig_stall + 9)) \
	>/etc/rcuqs/profiles/stall.profile
rcuqs-ctl set-profile stall >/dev/null 2>&1 || nok "set-profile stall"
is "$(cat $stall)" $((orig_stall + 9)) "set-profile stall: the stall timeout is set"
out=$(rcuqs-ctl set-profile throughput 2>&1)
is "$(cat $stall)" "$orig_stall" "switching to throughput puts the stall timeout back to $orig_stall: $(grep stall <<<"$out")"
out=$(rcuqs-ctl verify 2>&1)
check "verify matches after the switch: $out" test $? = 0
rcuqs-ctl set rcutree.jiffies_till_next_fqs=$((orig_fqs + 2)) >/dev/null 2>&1 || nok "set jiffies_till_next_fqs"
out=$(rcuqs-ctl off 2>&1)
check "off: exit 0" test $? = 0
diag "$out"
is "$(param $second)" "$boot_limit" "off: $second back to its boot value $boot_limit"
is "$(param jiffies_till_sched_qs)" "$boot_jtsq" "off: jiffies_till_sched_qs back to its boot value $boot_jtsq"
is "$(param jiffies_till_next_fqs)" "$boot_fqs" "off: jiffies_till_next_fqs (an ad-hoc set) back to $boot_fqs"
is "$(cat $stall)" "$boot_stall" "off: the stall timeout back to its boot value $boot_stall"
for f in /etc/rcuqs/active /etc/rcuqs/original /etc/default/grub.d/rcuqs.cfg; do
	check "off removed $f" test ! -e $f
done
out=$(rcuqs-ctl off 2>&1)
is "$out" "nothing to undo: rcuqs has no record of a change" "off again: nothing to undo"
rm -f /etc/rcuqs/profiles/stall.profile

# Leave the boot as it found it.
rcuqs-ctl set-profile default >/dev/null 2>&1
rcuqs-ctl off >/dev/null 2>&1
rm -f /etc/rcuqs/active
