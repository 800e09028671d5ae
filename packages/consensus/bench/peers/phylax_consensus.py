"""A Phylax-style SSSA consensus group in plain Python (no pydantic), the peer that `pnpm bench` times
ours against. Written from seed B ("SSSA consensus", /work/shared/spec/seeds/B-sssa-consensus.txt) and
SPEC section B of docs/spec.md (profile v1.1), not from our TypeScript: what a validator does for a fresh
group of raw SSSA documents, validate each document, reduce it to canonical keys (hashlib sha256), and
score every member on the seven components.

Input (JSON): a list of groups [{"task_id", "members": [{"uid", "hotkey", "role", "sssa"}]}].
peer(state) scores the next group of the list per call (so every call sees fresh documents).
Output: per group {"task_id", "keys": sorted majority keys, "members": [[uid, consensus or None], ...]}.
"""
import hashlib
import math
import re

VERDICTS = ("ALLOW", "BLOCK", "REVIEW")
SEVERITIES = frozenset(("low", "medium", "high", "critical"))
ASCII_SPACE = " \t\n\v\f\r"  # SPEC 0: trim U+0009-U+000D and U+0020 only
TO_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
TO_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
HASH_RANGE = re.compile(r"#L([0-9]+)(?:-L([0-9]+))?\Z")
COLON_RANGE = re.compile(r":([0-9]+)(?:-([0-9]+))?\Z")
SLASHES = re.compile(r"/{2,}")
W = (0.30, 0.15, 0.15, 0.15, 0.10, 0.10, 0.05)


class Invalid(ValueError):
    pass


def trim(s):
    return s.strip(ASCII_SPACE)


def fold(s):
    return trim(s).translate(TO_LOWER)


def text(value, what):
    if not isinstance(value, str) or trim(value) == "":
        raise Invalid(f"{what} must be a non-blank string")
    return value


def line(digits):
    return digits.lstrip("0") or "0"


def normalise(ref):
    s = trim(ref)
    colon = s.find(":")
    if colon >= 0:
        head = s[:colon]
        if "/" not in head and "." not in head:
            s = s[colon + 1:]
    rng = ""
    m = HASH_RANGE.search(s) or COLON_RANGE.search(s)
    if m:
        a = line(m.group(1))
        b = a if m.group(2) is None else line(m.group(2))
        if (len(a), a) > (len(b), b):
            raise Invalid("line range a > b")
        rng = f"#L{a}-L{b}"
        s = s[:m.start()]
    path = s.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    path = SLASHES.sub("/", path)
    if path == "":
        raise Invalid("empty evidence path")
    return path + rng


def finding_key(f):
    if not isinstance(f, dict):
        raise Invalid("finding must be an object")
    if not isinstance(f.get("id"), str) or not isinstance(f.get("description"), str):
        raise Invalid("id and description are strings")
    category = text(f.get("category"), "category")
    severity = f.get("severity")
    if not isinstance(severity, str) or fold(severity) not in SEVERITIES:
        raise Invalid("severity")
    ref = f.get("evidence_ref")
    if not isinstance(ref, str):
        raise Invalid("evidence_ref")
    evidence = normalise(ref)
    ids = f.get("cve_ids")
    if not isinstance(ids, list):
        raise Invalid("cve_ids")
    for c in ids:
        text(c, "cve id")
        if "|" in c or "," in c:
            raise Invalid("cve id separator")
    if "|" in category or "|" in evidence:
        raise Invalid("separator")
    target = text(f.get("target_pattern"), "target_pattern")
    cves = ",".join(sorted({trim(c).translate(TO_UPPER) for c in ids}))
    preimage = f"{fold(category)}|{fold(severity)}|{evidence}|{cves}|{trim(target)}"
    return hashlib.sha256(preimage.encode("utf-8")).hexdigest()


def reduce_document(doc):
    """Validates one raw SSSA and returns its sets (what consensus compares)."""
    if not isinstance(doc, dict):
        raise Invalid("document must be an object")
    verdict = doc.get("verdict")
    if verdict not in VERDICTS:
        raise Invalid("verdict")
    risk = doc.get("risk_score")
    if type(risk) not in (int, float) or not math.isfinite(risk) or not 0 <= risk <= 1:
        raise Invalid("risk_score")
    findings, caps, deps, policy = doc.get("findings"), doc.get("capabilities"), doc.get("dependencies"), doc.get("policy")
    if not isinstance(findings, list) or not isinstance(caps, list) or not isinstance(deps, list) or not isinstance(policy, dict):
        raise Invalid("lists")
    keys = {finding_key(f) for f in findings}
    cap_set = {fold(text(c, "capability")) for c in caps}
    dep_set, cve_set = set(), set()
    for d in deps:
        if not isinstance(d, dict) or not isinstance(d.get("cves"), list):
            raise Invalid("dependency")
        dep = (fold(text(d.get("package"), "package")), trim(text(d.get("version"), "version")))
        dep_set.add(dep)
        for c in d["cves"]:
            cve_set.add((dep[0], dep[1], trim(text(c, "cve")).translate(TO_UPPER)))
    rules = policy.get("rules")
    if not isinstance(rules, list):
        raise Invalid("rules")
    rule_set = set()
    for r in rules:
        if not isinstance(r, dict):
            raise Invalid("rule")
        rule_set.add((fold(text(r.get("resource"), "resource")), fold(text(r.get("action"), "action")), trim(text(r.get("pattern"), "pattern"))))
    return {"verdict": verdict, "risk": float(risk), "keys": keys, "caps": cap_set, "deps": dep_set, "cves": cve_set, "rules": rule_set}


def majority(sets, threshold):
    counts = {}
    for s in sets:
        for item in s:
            counts[item] = counts.get(item, 0) + 1
    return {item for item, c in counts.items() if c >= threshold}


def jaccard(m, g):
    union = len(m | g)
    return 1.0 if union == 0 else len(m & g) / union


def cover(m, g):
    return 1.0 if not g else len(m & g) / len(g)


def score_group(group):
    members = []
    for member in group["members"]:
        try:
            members.append((member["uid"], member["hotkey"], reduce_document(member["sssa"])))
        except Invalid:
            continue  # excluded from the group (SPEC B v1.1)
    members.sort(key=lambda m: m[0])
    n = len(members)
    if n < 3:
        return {"task_id": group["task_id"], "keys": [], "members": [[uid, None] for uid, _, _ in members]}
    threshold = n // 2 + 1
    docs = [d for _, _, d in members]
    g_keys = majority([d["keys"] for d in docs], threshold)
    g_caps = majority([d["caps"] for d in docs], threshold)
    g_deps = majority([d["deps"] for d in docs], threshold)
    g_cves = {c for c in majority([d["cves"] for d in docs], threshold) if (c[0], c[1]) in g_deps}
    g_rules = majority([d["rules"] for d in docs], threshold)
    counts = {v: 0 for v in VERDICTS}
    for d in docs:
        counts[d["verdict"]] += 1
    top = max(counts.values())
    leaders = [v for v in VERDICTS if counts[v] == top]
    verdict = leaders[0] if len(leaders) == 1 else "REVIEW"
    risk_sum = 0.0
    for _, _, d in sorted(members, key=lambda m: m[1]):  # hotkey order (SPEC B v1.1)
        risk_sum += d["risk"]
    mean = risk_sum / n
    out = []
    for uid, _, d in members:
        inter = len(d["keys"] & g_keys)
        recall = 1.0 if not g_keys else inter / len(g_keys)
        precision = (1.0 if not g_keys else 0.0) if not d["keys"] else inter / len(d["keys"])
        agree = 1.0 if d["verdict"] == verdict else (0.5 if d["verdict"] == "REVIEW" else 0.0)
        caps = jaccard(d["caps"], g_caps)
        risk = max(0.0, 1.0 - abs(d["risk"] - mean))
        deps = 0.5 * cover(d["deps"], g_deps) + 0.5 * cover(d["cves"], g_cves)
        policy = jaccard(d["rules"], g_rules)
        total = W[0] * recall + W[1] * precision + W[2] * agree + W[3] * caps + W[4] * risk + W[5] * deps + W[6] * policy
        out.append([uid, min(1.0, max(0.0, total))])
    return {"task_id": group["task_id"], "keys": sorted(g_keys), "members": out}


ALL_OUTPUTS = []


def prepare(groups):
    # Every group's output, for the comparison with ours before any timing (see to_json).
    ALL_OUTPUTS[:] = [score_group(g) for g in groups]
    return {"groups": groups, "next": 0}


def peer(state):
    i = state["next"]
    state["next"] = (i + 1) % len(state["groups"])
    return score_group(state["groups"][i])


def to_json(_first_output):
    return ALL_OUTPUTS
