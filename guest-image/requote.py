#!/usr/bin/env python3
# requote.py OLD NEW QUOTES TOP: after doc/bench-figures changed from OLD to
# NEW (two versions of the file), the markdown files doc/bench-quotes
# (QUOTES) quotes from, under TOP, rewritten so that each quote that names a
# changed key reads with NEW's value: the quote is found as it reads with
# OLD's values (runs of blanks and line breaks matching any run, as
# man/tests/check-man.sh compares them) and only its figures are replaced,
# so the file's line breaks stay. bench-report.sh --update-figures runs it.
# Quotes in other files (man pages, profiles, C sources) are listed on
# stderr for a hand edit: their text is not the file's own. Exit status 1
# when a quote to rewrite was not found as it read before.
import re
import sys


def figures(path):
    fig = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or "=" not in line:
            continue
        k, v = line.rstrip("\n").split("=", 1)
        fig[k] = v
    return fig


def main():
    old, new = figures(sys.argv[1]), figures(sys.argv[2])
    quotes, top = sys.argv[3], sys.argv[4]
    changed = {k for k in new if old.get(k) != new[k]}
    todo = {}
    for line in open(quotes, encoding="utf-8"):
        if line.startswith("#") or "\t" not in line:
            continue
        name, text = line.rstrip("\n").split("\t", 1)
        keys = re.findall(r"\{([A-Za-z0-9_]+)\}", text)
        if set(keys) & changed:
            todo.setdefault(name, []).append(text)
    bad = 0
    for name, texts in todo.items():
        if not name.endswith(".md"):
            print(f"requote: {name}: {len(texts)} quote(s) with a changed figure: edit by hand", file=sys.stderr)
            continue
        path = f"{top}/{name}"
        body = open(path, encoding="utf-8").read()
        for text in texts:
            parts = re.split(r"\{([A-Za-z0-9_]+)\}", text)
            rx, keys = "", []
            for i, p in enumerate(parts):
                if i % 2:
                    v = old.get(p, new.get(p, ""))
                    rx += "(" + r"\s+".join(re.escape(w) for w in v.split()) + ")"
                    keys.append(p)
                else:
                    rx += r"\s+".join(re.escape(w) for w in re.split(r"\s+", p)) if p.strip() else (r"\s+" if p else "")
            m = re.search(rx, body)
            if not m:
                print(f"requote: {name}: not found as it read before: {text[:80]}...", file=sys.stderr)
                bad = 1
                continue
            out, last = [], m.start()
            for gi, k in enumerate(keys, 1):
                out.append(body[last:m.start(gi)])
                out.append(new.get(k, old.get(k, "")))
                last = m.end(gi)
            out.append(body[last:m.end()])
            body = body[:m.start()] + "".join(out) + body[m.end():]
        open(path, "w", encoding="utf-8").write(body)
        print(f"requote: {name}: {len(texts)} quote(s) rewritten")
    return bad


if __name__ == "__main__":
    sys.exit(main())
