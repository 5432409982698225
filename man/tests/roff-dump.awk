# roff-dump.awk: turn a man(7) page into records a shell test can grep.
#
# One record per line, tab-separated:
#   SECTION  SUBSECTION  TAG  KIND  TEXT
# KIND is "sh" for a .SH heading (TEXT = its name), "ss" for a .SS heading,
# "tag" for the tag line of a .TP paragraph, "sy" for the command name of a
# .SY synopsis line, "ex" and "ee" where an example (.EX/.EE) starts and
# ends, "text" for any other line that produces text. TAG is the text of the last .TP tag seen in the current
# section or subsection ("" before the first one), so the body of a tagged
# paragraph can be found by its tag. TEXT is plain text: fonts dropped,
# \- as -, the arguments of .B/.I joined by spaces, those of .BR/.IR and
# the other alternating macros joined without, as roff prints them.
#
# Only the subset of man(7) that rcuqs' pages use is understood; anything
# else a line does is passed through, which makes tests fail, not pass.

function unescape(s) {
	gsub(/\\f[BIRP]/, "", s)
	gsub(/\\f\(CW/, "", s)
	gsub(/\\-/, "-", s)
	gsub(/\\\|/, "", s)
	gsub(/\\&/, "", s)
	gsub(/\\ /, " ", s)
	gsub(/\\~/, " ", s)
	gsub(/\\\(em/, "--", s)
	gsub(/\\\(en/, "-", s)
	gsub(/\\\(mu/, "x", s)
	gsub(/\\\(bu/, "*", s)
	gsub(/\\\(lq|\\\(rq/, "\"", s)
	gsub(/\\\(aq/, "'", s)
	gsub(/\\e/, "\\", s)
	return s
}

# Split a macro's arguments, honouring "double quotes", into args[1..n].
function splitargs(s, args,    n, i, c, cur, inq, started) {
	n = 0; cur = ""; inq = 0; started = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (inq) {
			if (c == "\"") { inq = 0 } else { cur = cur c }
		} else if (c == "\"") {
			inq = 1; started = 1
		} else if (c == " " || c == "\t") {
			if (started || cur != "") { args[++n] = cur; cur = ""; started = 0 }
		} else if (c == "\\" && substr(s, i + 1, 1) == " ") {
			cur = cur "\\ "; i++; started = 1
		} else {
			cur = cur c; started = 1
		}
	}
	if (started || cur != "") args[++n] = cur
	return n
}

function emit(kind, text) {
	printf "%s\t%s\t%s\t%s\t%s\n", sect, subs, tag, kind, text
}

BEGIN { sect = ""; subs = ""; tag = ""; want_tag = 0 }

/^\.\\"/ || /^'\\"/ { next }

/^\.SH/ {
	n = splitargs(substr($0, 4), a); t = ""
	for (i = 1; i <= n; i++) t = t (i > 1 ? " " : "") a[i]
	sect = unescape(t); subs = ""; tag = ""; want_tag = 0
	emit("sh", sect)
	next
}
/^\.SS/ {
	n = splitargs(substr($0, 4), a); t = ""
	for (i = 1; i <= n; i++) t = t (i > 1 ? " " : "") a[i]
	subs = unescape(t); tag = ""; want_tag = 0
	emit("ss", subs)
	next
}
/^\.TP/ { want_tag = 1; next }
/^\.EX/ { emit("ex", ""); next }
/^\.EE/ { emit("ee", ""); next }

{
	line = $0
	if (line ~ /^\.(B|I|SM|SB)([ \t]|$)/) {
		m = line; sub(/[ \t].*/, "", m)
		n = splitargs(substr(line, length(m) + 1), a); t = ""
		for (i = 1; i <= n; i++) t = t (i > 1 ? " " : "") a[i]
		text = unescape(t)
	} else if (line ~ /^\.(BR|BI|IR|IB|RB|RI)([ \t]|$)/) {
		n = splitargs(substr(line, 4), a); t = ""
		for (i = 1; i <= n; i++) t = t a[i]
		text = unescape(t)
	} else if (line ~ /^\.SY/) {
		n = splitargs(substr(line, 4), a)
		emit("sy", unescape(a[1]))
		next
	} else if (line ~ /^[.']/) {
		# other requests and macros (.PP .IP .EX .in .br ...) print no text
		# of their own here; .IP's tag is dropped on purpose
		next
	} else {
		text = unescape(line)
	}
	if (want_tag) {
		tag = text; want_tag = 0
		emit("tag", text)
	} else {
		emit("text", text)
	}
}
