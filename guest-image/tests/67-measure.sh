# boots: cmdline main
# rcuqs-ctl measure (issue 39, item 1) on the kernel it is for: with
# nohz_full CPUs (cmdline: CPUs 2-3, user space on 0-1) it times
# synchronize_rcu() from a housekeeping CPU while each load keeps CPU 2 in
# the kernel, counts CPU 2's interrupts and the grace periods completed
# (the series' gp_completed), and writes nothing; without nohz_full (main)
# it refuses, naming it. The figures themselves are the emulator's (the
# munmap and syscall loads do not pause, so single-threaded TCG runs the
# other vCPUs only at its 100 ms kick): asserted is that each load was
# measured, not how fast.
. "$RCUQS_LIB/lib.sh"

if [ "$(cmdline_arg rcuqs.suite)" = main ]; then
	out=$(rcuqs-ctl measure --seconds 1 2>&1)
	rc=$?
	is "$rc" 1 "measure without nohz_full CPUs exits 1"
	check "measure without nohz_full CPUs says why ($out)" grep -q nohz_full <<<"$out"
	exit 0
fi

nohz_cpu || exit 0
before=$(rcu_params)
json=$(rcuqs-ctl measure --seconds 2 --json 2>/tmp/measure.err)
rc=$?
diag "rcuqs-ctl measure --seconds 2 --json: exit $rc; $json" "stderr: $(cat /tmp/measure.err)"
is "$rc" 0 "measure --seconds 2 --json exits 0"
is "$(rcu_params)" "$before" "measure leaves every rcutree and rcupdate parameter as it was"
check "measure: the loads run on nohz_full CPU $nz, timed on a housekeeping CPU (0 or 1)" \
	grep -Eq "\"cpu\":$nz,\"housekeeping_cpu\":[01]," <<<"$json"
check "measure: an rcuqs kernel, synchronize_rcu() as the source" \
	grep -q '"source":"synchronize_rcu".*"rcuqs_kernel":true' <<<"$json"
for l in none munmap syscall; do
	row=$(measure_row "$json" "$l")
	s=$(json_num "$row" samples) p50=$(json_num "$row" p50_ms)
	gps=$(json_num "$row" gp_per_s) ipg=$(json_num "$row" interrupts_per_gp)
	check "measure, load $l: synchronize_rcu() timed (samples $s, p50 $p50 ms)" \
		eval '[ "${s:-0}" -ge 3 ] && [ -n "$p50" ] && [ "$p50" != 0.000 ]'
	check "measure, load $l: grace periods counted (gp_per_s $gps) and CPU $nz's interrupts per grace period given ($ipg)" \
		eval '[ -n "$gps" ] && [ "${gps%%.*}" -gt 0 ] && [ -n "$ipg" ]'
done

# --compare: the three settings side by side, every parameter put back.
before=$(rcu_params)
json=$(rcuqs-ctl measure --compare --seconds 1 --load none,munmap --json 2>/tmp/measure.err)
rc=$?
diag "rcuqs-ctl measure --compare --seconds 1 --load none,munmap --json: exit $rc; $json" "stderr: $(cat /tmp/measure.err)"
is "$rc" 0 "measure --compare exits 0"
is "$(rcu_params)" "$before" "measure --compare puts every rcutree and rcupdate parameter back"
for st in default latency jtsq1; do
	for l in none munmap; do
		s=$(json_num "$(measure_row "$json" "$l" "$st")" samples)
		check "measure --compare: $st, load $l measured (samples ${s:-none})" eval '[ "${s:-0}" -ge 1 ]'
	done
done
