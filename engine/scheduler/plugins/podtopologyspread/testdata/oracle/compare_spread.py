# Compares PodTopologySpread between the oracle and podlab explain on scenario files:
#   go build -o /tmp/pts/podlab . && python3 compare_spread.py "/tmp/gen/*.yaml"
# (scenarios from `/tmp/oracle gen --seed N --out /tmp/gen --count K`). Per node: topology-spread
# rejection reasons must agree; when the feasible sets agree, PodTopologySpread scores must too.
import json, subprocess, sys, glob
files = sorted(glob.glob(sys.argv[1]))
agree = feas_diff = pts_mismatch = err = 0
checked_scores = checked_rej = 0
for f in files:
    try:
        o = json.loads(subprocess.run(["/tmp/oracle","explain","-f",f,"--verbose"],capture_output=True,text=True,timeout=60).stdout)
        l = json.loads(subprocess.run(["/tmp/pts/podlab","explain","-f",f,"-o","json","--tie-break","name"],capture_output=True,text=True,timeout=60).stdout)
    except Exception as e:
        err += 1; print("ERR", f, e); continue
    on = {n["node"]: n for n in o["nodes"]}; ln = {n["node"]: n for n in l["nodes"]}
    bad = []
    for name, a in on.items():
        b = ln.get(name)
        if b is None: bad.append((name,"missing")); continue
        ar = [r for r in (a.get("reasons") or []) if "topology spread" in r]
        br = [r for r in (b.get("reasons") or []) if "topology spread" in r]
        if ar or br:
            checked_rej += 1
            if sorted(ar) != sorted(br): bad.append((name,"reasons",a.get("reasons"),b.get("reasons")))
    if sorted(o["feasible"]) != sorted(l["feasible"]):
        feas_diff += 1
        if not bad: print("FEASIBLE-DIFF (not PTS):", f, o["feasible"], l["feasible"])
    else:
        for name in o["feasible"]:
            checked_scores += 1
            sa = on[name]["scores"].get("PodTopologySpread",0); sb = ln[name]["scores"].get("PodTopologySpread",0)
            if sa != sb: bad.append((name,"score",sa,sb))
    if bad:
        pts_mismatch += 1; print("MISMATCH", f, bad[:4])
    else:
        agree += 1
print(f"scenarios={len(files)} agree={agree} ptsMismatch={pts_mismatch} feasibleDiff={feas_diff} errors={err} rejChecked={checked_rej} scoresChecked={checked_scores}")
