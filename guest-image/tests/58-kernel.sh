# boots: main active
# rcuqs-ctl knows which kernel it drives: status names the release, the
# rcuqs series' baseline and the preemption model in force, as this
# kernel has them (uname, /boot/config-RELEASE as Debian installs it, the
# command line), and says whether cond_resched() reports.
. "$RCUQS_LIB/lib.sh"

release=$(uname -r)
base=${release%.*}
want=$(preempt_model)
reports=true
case $want in full | lazy | rt) reports=false ;; esac

out=$(rcuqs-ctl status 2>&1)
is "$?" 0 "status exits 0"
line=$(grep '^kernel: ' <<<"$out")
diag "$line" "$(grep '^what acts: ' <<<"$out")"
check "status names the release, the series for $base and preemption $want: '$line'" \
	eval '[[ $line == "kernel: $release, rcuqs series for $base, preemption $want "* ]]'

j=$(rcuqs-ctl --json status 2>&1)
k=$(sed -n 's/.*"kernel":{\([^}]*\)}.*/\1/p' <<<"$j")
diag "json kernel: {$k}"
for kv in "\"release\":\"$release\"" "\"baseline\":\"$base\"" '"rcuqs":true' \
	"\"preempt\":\"$want\"" "\"cond_resched_reports\":$reports"; do
	check "status --json: kernel has $kv" eval '[[ $k == *"$kv"* ]]'
done
