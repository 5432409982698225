# boots: main
# What libkmod (modinfo) can read about built-in rcutree, and whether the
# kernel's own metadata describes the new parameters.
. "$RCUQS_LIB/lib.sh"

r=$(uname -r)
bmi=/lib/modules/$r/modules.builtin.modinfo
for cmd in "modinfo tree" "modinfo -p tree" "modinfo rcutree" "modinfo -F parm tree"; do
	out=$($cmd 2>&1)
	diag "\$ $cmd  (exit $?)" "$out"
done
diag "\$ kmod-probe tree rcutree rcuqs_loop  (libkmod calls, see tools/kmod-probe.c)" \
	"$(kmod-probe tree rcutree rcuqs_loop 2>&1)"
diag "modules.builtin lists: $(grep -c . /lib/modules/$r/modules.builtin 2>/dev/null) objects; rcu ones: $(grep rcu /lib/modules/$r/modules.builtin 2>/dev/null | tr '\n' ' ')"
diag "\$ tr '\\0' '\\n' < $bmi | grep -E '^(tree|update)\\.'"
diag "$(tr '\0' '\n' < $bmi | grep -E '^(tree|update)\.')"

check "$bmi exists" test -s $bmi
keys=$(tr '\0' '\n' < $bmi)
ps=jiffies_till_sched_qs
if has_limit; then
	ps="$ps cond_resched_qs_limit"
else
	no_limit_skip "modules.builtin.modinfo describes cond_resched_qs_limit"
fi
[ -e $P/jiffies_till_nohz_qs ] && ps="$ps jiffies_till_nohz_qs"
for p in $ps; do
	check "modules.builtin.modinfo describes $p (tree.parm=$p:...)" \
		eval 'grep -q "^tree\.parm=$p:." <<<"$keys"'
	# module_param_cb() records no parmtype; only say what is there.
	diag "parmtype for $p: $(grep "^tree\.parmtype=$p:" <<<"$keys" || echo none)"
done
