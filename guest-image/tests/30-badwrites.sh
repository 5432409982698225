# boots: main
# Bad writes: each one fails with EINVAL (one write(2), sysfs-write) and
# leaves both the parameter and the value in force as they were.
. "$RCUQS_LIB/lib.sh"

max=$(sched_qs_max)
long9=$(printf '9%.0s' $(seq 5000))
long1=$(printf '1%.0s' $(seq 5000))
longa=$(printf 'a%.0s' $(seq 5000))
longsp="1$(printf ' %.0s' $(seq 5000))"

# Values no decimal parameter may take. Each is shown as printf %q.
common=(
	"" $'\n' " " $'\t' $'  \n' $'\n\n' "-1" "-0" "- 1"
	"18446744073709551616" "99999999999999999999"
	"4294967296" "4294967297"
	"0x10" "0X10" "0b1" "abc" "12abc" "1 2" "1.5" "5 " " 5" "1e3" "5,"
	$'5\n6' "$long9" "$long1" "$longa" "$longsp"
)

# try NAME VALUE: the write must fail with EINVAL and change nothing.
try() {
	local name=$1 v=$2 out rc before after tb ta show
	printf -v show '%q' "$v"
	[ ${#show} -gt 40 ] && show="${show:0:12}...(${#v} bytes)"
	get before "$P/$name"
	get tb $P/jiffies_to_sched_qs
	if [ -z "$v" ]; then
		# write(2) of 0 bytes never reaches the parameter (sysfs returns
		# 0 early): it must succeed and change nothing.
		out=$(swrite "$P/$name" "")
		rc=$?
		is "$rc:$out" "0:ok 0" "$name: a zero-length write is a no-op"
	else
		out=$(swrite "$P/$name" "$v")
		rc=$?
		is "$rc:${out%% *}" "1:EINVAL" "$name=$show fails with EINVAL ($out)"
	fi
	get after "$P/$name"
	get ta $P/jiffies_to_sched_qs
	if [ "$before/$tb" != "$after/$ta" ]; then
		nok "$name=$show leaves the value as it was"
		diag "before: $name=$before jiffies_to_sched_qs=$tb; after: $after $ta"
	fi
}

# Start from values that differ from the defaults, so "unchanged" shows.
setp jiffies_till_sched_qs 40
if has_limit; then
	setp cond_resched_qs_limit 300
	is "$(param jiffies_till_sched_qs)/$(param cond_resched_qs_limit)" 40/300 "start values set"
else
	is "$(param jiffies_till_sched_qs)" 40 "start value set"
fi

for v in "${common[@]}" 0 $((max + 1)) $((max * 2)) 1000000 "autox" "au" "auto auto" " auto" "AUTOMATIC"; do
	try jiffies_till_sched_qs "$v"
done
is "$(param jiffies_till_sched_qs)/$(param jiffies_to_sched_qs)" 40/40 "jiffies_till_sched_qs still 40 and in force"

if ! has_limit; then
	no_limit_skip "bad writes to cond_resched_qs_limit fail with EINVAL and change nothing"
	# 7.3: jiffies_till_nohz_qs refuses the same, and values past the
	# bound of jiffies_till_sched_qs.
	setp jiffies_till_nohz_qs 7
	for v in "${common[@]}" $((max + 1)) $((max * 2)) 1000000 18446744073709551615 auto; do
		try jiffies_till_nohz_qs "$v"
	done
	is "$(param jiffies_till_nohz_qs)" 7 "jiffies_till_nohz_qs still 7"
	setp jiffies_till_nohz_qs 0
	err=$( (echo auto > $P/jiffies_till_nohz_qs) 2>&1)
	check "echo auto > jiffies_till_nohz_qs fails with 'Invalid argument'" eval '[[ $err == *"Invalid argument"* ]]'
	err=$( (echo 0 > $P/jiffies_till_sched_qs) 2>&1)
	check "echo 0 > jiffies_till_sched_qs fails with 'Invalid argument'" eval '[[ $err == *"Invalid argument"* ]]'
	setp jiffies_till_sched_qs auto
	exit 0
fi
for v in "${common[@]}" 18446744073709551615 1048577 2097152 2147483648 auto; do
	try cond_resched_qs_limit "$v"
done
is "$(param cond_resched_qs_limit)" 300 "cond_resched_qs_limit still 300"

# A shell redirection works the same (bash's printf: one write for a short
# value). Its error text is what an administrator sees.
err=$( (printf '%s' 12abc > $P/cond_resched_qs_limit) 2>&1)
check "shell write of 12abc fails with 'Invalid argument' ($err)" eval '[[ $err == *"Invalid argument"* ]]'
err=$( (echo 0 > $P/jiffies_till_sched_qs) 2>&1)
check "echo 0 > jiffies_till_sched_qs fails with 'Invalid argument'" eval '[[ $err == *"Invalid argument"* ]]'

# Informational: a value longer than a page is cut at 4096 bytes by sysfs
# before the parameter sees it (kernfs_fop_write_iter); 5000 zeros thus
# reach the limit as 4096 zeros, a valid 0, and the write is short.
out=$(swrite $P/cond_resched_qs_limit "$(printf '0%.0s' $(seq 5000))")
diag "5000 zeros to cond_resched_qs_limit: '$out', now $(param cond_resched_qs_limit)"

setp jiffies_till_sched_qs auto
setp cond_resched_qs_limit 0
