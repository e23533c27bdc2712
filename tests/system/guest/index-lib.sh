# Helpers of the index checks (sourced after lib.sh): probe STEP PATH
# adds index-probe.py's two lines for PATH to $answers and $reads; step
# STEP CMD... runs a policy change, its failure going into $answers and
# its time into the log; report_index NAME reports NAME-answers and
# NAME-reads.
answers="" reads=""
probe() {
	r=$(python3 $S/index-probe.py "$2" 2>&1)
	answers="$answers$1: $(printf '%s\n' "$r" | head -n1)
"
	reads="$reads$1: $(printf '%s\n' "$r" | tail -n1)
"
}
step() {
	s=$1
	shift
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$@" > /tmp/index-step.log 2>&1 ||
		answers="$answers$s: failed: $(tail -n 3 /tmp/index-step.log)
"
	info "$s: $(awk -v t0="$t0" '{print $1 - t0}' /proc/uptime) s"
}
report_index() {
	value "$1-answers" "$(printf '%s' "$answers")"
	value "$1-reads" "$(printf '%s' "$reads")"
}
