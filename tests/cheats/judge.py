"""judge.py GRADES_CSV STUDENT LESSON TEST HOW: the student's report against
the corpus' claim (tests/cheats/lib.sh, the GRADE column); prints the test's
outcome, and exits 1 when the claim does not hold."""
import csv, json, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
student, lesson, tid, how = sys.argv[2:6]
j = json.load(open(rows[student]["report"]))
ch = next(c for c in j["chapters"] if c["lesson"] == lesson)
tq = [x for x in ch["tests"] if x["kind"] == "technique"]
if tid == "technique":   # any technique test: the first that fails, else the first
    t = next((x for x in tq if x["outcome"] == "fail"), tq[0])
else:                    # the test, or the technique test of that name on one kernel
    t = next(x for x in ch["tests"] if x["id"] == tid or (x["kind"] == "technique" and x["id"].startswith(tid + ".")))
hidden = [x for x in ch["tests"] if x["kind"] == "hidden"]
def show(x):
    return "%s %s %s/%s: %s" % (x["id"], x["outcome"], x["score"], x["max_score"], (x.get("detail") or "")[:300].replace("\n", " "))
below = ch["score"] < ch["max_score"] - 1e-6
if how == "technique":
    good = t["outcome"] == "fail" and t["score"] == 0 and below and all(x["outcome"] == "pass" for x in hidden)
elif how == "race":
    good = (t["outcome"] == "fail" and below and all(x["score"] == 0 for x in hidden)
            and all(x["score"] == 0 for x in ch["tests"] if x["kind"] == "technique"))
elif how == "wrong":
    # other hidden tests of the same shape may catch it too (a drawn shape), but only as wrong answers
    good = (t["outcome"] == "fail" and t["status"] == "wrong" and below
            and all(x["outcome"] == "pass" or x["status"] == "wrong" for x in hidden if x["id"] != tid))
elif how == "not_a_fix":
    good = t["outcome"] == "fail" and t["status"] == "not_a_fix" and below
elif how == "listing":
    ran = [x for x in hidden if x["outcome"] != "skip"]
    good = below and ran and all(x["score"] == 0 and x["status"] == "listing" for x in ran)
elif how == "accepted":
    good = t["outcome"] == "pass"
else:
    good = False
print("%s: %s; chapter %g / %g" % (student, show(t), ch["score"], ch["max_score"]))
if not good:
    for x in ch["tests"]:
        if x is not t and x["outcome"] != "pass":
            print("  also:", show(x))
sys.exit(0 if good else 1)
