# rcuqs profile: default. Format: rcuqs.profile(5).
#
# Upstream behaviour on every baseline (6.1, 6.12, 7.3), what the kernel
# does with no rcuqs setting:
# - rcutree.jiffies_till_sched_qs=auto: the kernel computes the delay after
#   which a grace period asks a holding CPU for an urgent quiescent state
#   (jiffies_till_first_fqs + 2 * jiffies_till_next_fqs, at least
#   HZ/10 + nr_cpu_ids/RCU_JIFFIES_FQS_DIV: 25 jiffies = 100 ms at Debian's
#   HZ=250; commit c06aed0e3100). cond_resched() reports a quiescent state
#   only after that request (the flag approach of 4a81e8328d37, 2014).
# - rcutree.cond_resched_qs_limit=0: no periodic report from cond_resched().
#   7.3 has no such limit (its cond_resched() does nothing on x86); there
#   the series' rcutree.jiffies_till_nohz_qs=0, off, is the same upstream
#   behaviour: RCU does not ask a looping nohz_full CPU early. One line
#   names both: the first the running kernel has is set (rcuqs.profile(5), Alternatives).
#
# The other shipped profiles include this one, so switching between them
# never leaves a value of the previous profile behind.
description=Upstream behaviour on 6.1, 6.12 and 7.3: grace-period length and callback batching as the kernel computes them
rcutree.jiffies_till_sched_qs=auto
rcutree.jiffies_till_nohz_qs=0 || rcutree.cond_resched_qs_limit=0
