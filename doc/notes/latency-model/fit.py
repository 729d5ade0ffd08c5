#!/usr/bin/env python3
"""Latency model for a 2x Xeon E5-2603 v4 (Broadwell-EP, 1.7 GHz, no turbo,
QPI 6.4 GT/s, DDR4-1866, Early Snoop), fitted on published figures of OTHER
Haswell-EP / Broadwell-EP machines.  Research script, not product code.
Pure python (numpy is not installable here).  Run: python3 fit.py

Two parts:
  A. plain least squares  L = a + b/f_core  (what the data can identify),
     with leave-one-out (LOO) errors; shows c/f_uncore and d/QPI are not
     identifiable from the published points.
  B. anchored decomposition  L = Nc/f_core + Nu/f_uncore + Q(qpi) + F(dram)
     + fixed, with Nu (uncore cycles) calibrated on each anchor machine and
     the core/QPI/DRAM/fixed parts taken from priors with ranges; Monte Carlo
     over the priors and over the unknown inputs of the anchors (turbo state,
     snoop mode).  LOO across anchors = the model's transfer error.
Every measured number below carries its source in the comment; see
latency-model.md for the full citations.
"""
import random, statistics, math

random.seed(20240607)

# ---------------------------------------------------------------------------
# Machines (inputs).  f_c: (base, max-1-core-turbo) GHz; f_u: max uncore GHz
# (HSW-EP 3.0: likwid issue #145 measured 1.2/3.0 on E5-2695 v3; BDW-EP 2.8:
# opendcdiag PR #484 measured 2.8 GHz max on an 18-core BDX; AnandTech 10158
# p.2: uncore "limited to 3 GHz").  qpi GT/s, dram MT/s (ark / assumption).
# die: 'LCC' (<=10C, 1 ring), 'MCC' (12-15C), 'HCC' (16-22C, 2 rings).
# turbo: True/False/None (None = not stated -> sample both).
# ---------------------------------------------------------------------------
M = {
 'HSW-2699v3-CSIT':  dict(fc=(2.3, 3.6), fu=3.0, qpi=9.6, dram=2133, die='HCC', turbo=None),
 'HSW-2680v3-KUL':   dict(fc=(2.5, 3.3), fu=3.0, qpi=9.6, dram=2133, die='MCC', turbo=None),
 'BDW-2682v4-Ali':   dict(fc=(2.5, 3.0), fu=2.8, qpi=9.6, dram=2400, die='HCC', turbo=None),
 'BDW-2660v4-McC':   dict(fc=(2.0, 3.2), fu=2.8, qpi=9.6, dram=2400, die='MCC', turbo=None),
 'BDW-2699v4-AT':    dict(fc=(2.2, 3.6), fu=2.8, qpi=9.6, dram=2400, die='HCC', turbo=False),
 # core-to-core (CAS) machines, nviennot/core-to-core-latency results/*.csv
 'BDW-2630v4-c2c':   dict(fc=(2.2, 3.1), fu=2.8, qpi=8.0, dram=2133, die='LCC', turbo=True),
 'BDW-2680v4-c2c':   dict(fc=(2.4, 3.3), fu=2.8, qpi=9.6, dram=2400, die='MCC', turbo=True),
 'BDW-2695v4-c2c':   dict(fc=(2.1, 3.3), fu=2.8, qpi=9.6, dram=2400, die='HCC', turbo=True),
}
TARGET = dict(fc=(1.7, 1.7), fu=None, qpi=6.4, dram=1866, die='LCC', turbo=False)

# ---------------------------------------------------------------------------
# Measurements (ns).  MLC = Intel Memory Latency Checker.
# ---------------------------------------------------------------------------
DATA = {
 # (b) local DRAM idle, MLC matrix diagonal, mean of the two nodes
 'local_dram': {
   'HSW-2699v3-CSIT': (101.0 + 98.8) / 2,   # FDio/csit test_environment_sut_calib_hsw.rst (MLC 3.5)
   'HSW-2680v3-KUL':  (92.1 + 90.0) / 2,    # hpcleuven/VscDocumentation thinking/haswell_mlc.txt (MLC 3.1a)
   'BDW-2682v4-Ali':  (85.0 + 84.2) / 2,    # plantegg blog (MLC 3.9), E5-2682 v4
 },
 # (c) remote DRAM idle, MLC off-diagonal mean
 'remote_dram': {
   'HSW-2699v3-CSIT': (132.0 + 141.2) / 2,
   'HSW-2680v3-KUL':  (127.1 + 129.4) / 2,
   'BDW-2682v4-Ali':  (136.3 + 137.2) / 2,
 },
 # (e) same-socket L2->L2 HITM (MLC)
 'local_hitm': {
   'HSW-2699v3-CSIT': 47.0,
   'HSW-2680v3-KUL':  36.6,
   'BDW-2682v4-Ali':  46.3,
   'BDW-2660v4-McC':  (40.3 + 42.3) / 2,   # McCalpin, Intel forum thread 700477
 },
 # (a) remote L2->L2 HITM (MLC), mean of writer-/reader-homed entries
 'remote_hitm_l2': {
   'HSW-2699v3-CSIT': (108.0 + 106.9 + 107.7 + 106.6) / 4,
   'BDW-2682v4-Ali':  (108.6 + 108.8 + 109.7 + 110.1) / 4,
 },
 # (a') remote LLC->LLC HITM (MLC 3.1a measured LLC-resident M lines)
 'remote_hitm_llc': {
   'HSW-2680v3-KUL':  (75.7 + 75.8 + 76.0 + 76.0) / 4,
 },
 # (d) local LLC hit: AnandTech 11544 (Skylake-SP review) LMBench table,
 # E5-2699 v4: 38-51 cycles (4-8 MB).  Assumed quoted at 2.2 GHz base
 # (their Skylake row converts 55 cycles ~ 26 ns, i.e. at the 2.1 GHz base).
 'llc_hit': {
   'BDW-2699v4-AT':   (38 + 51) / 2 / 2.2,
 },
}
# CAS ping-pong medians (round trip / 2), computed by c2c_stats.py
CAS = {
 'same':  {'BDW-2630v4-c2c': 39.2, 'BDW-2680v4-c2c': 45.2, 'BDW-2695v4-c2c': 43.5},
 'cross': {'BDW-2630v4-c2c': 117.9, 'BDW-2680v4-c2c': 127.5, 'BDW-2695v4-c2c': 118.1},
}

# ---------------------------------------------------------------------------
# Part A: ordinary least squares, small helper (no numpy)
# ---------------------------------------------------------------------------
def ols(X, y):
    """Solve normal equations; X rows include the constant column."""
    n, p = len(X), len(X[0])
    A = [[sum(X[k][i] * X[k][j] for k in range(n)) for j in range(p)] for i in range(p)]
    b = [sum(X[k][i] * y[k] for k in range(n)) for i in range(p)]
    # Gauss-Jordan
    for i in range(p):
        piv = max(range(i, p), key=lambda r: abs(A[r][i]))
        if abs(A[piv][i]) < 1e-12:
            return None
        A[i], A[piv] = A[piv], A[i]; b[i], b[piv] = b[piv], b[i]
        for r in range(p):
            if r != i:
                f = A[r][i] / A[i][i]
                A[r] = [A[r][c] - f * A[i][c] for c in range(p)]
                b[r] -= f * b[i]
    return [b[i] / A[i][i] for i in range(p)]

def partA():
    print("=" * 78)
    print("PART A  plain fit L = a + b/f_core on the MLC points (HSW-EP/BDW-EP)")
    print("=" * 78)
    for metric in ('local_dram', 'remote_dram', 'local_hitm'):
        pts = DATA[metric]
        for mode in ('base', 'turbo'):
            names = list(pts)
            fc = {n: M[n]['fc'][0 if mode == 'base' else 1] for n in names}
            X = [[1.0, 1.0 / fc[n]] for n in names]
            y = [pts[n] for n in names]
            coef = ols(X, y)
            res = [y[i] - (coef[0] + coef[1] * X[i][1]) for i in range(len(y))]
            loo = []
            for i in range(len(names)):
                Xi = [X[k] for k in range(len(X)) if k != i]
                yi = [y[k] for k in range(len(y)) if k != i]
                c = ols(Xi, yi) if len(Xi) >= 2 else None
                if c is None:
                    loo.append(float('nan'))
                else:
                    loo.append(y[i] - (c[0] + c[1] * X[i][1]))
            pred = coef[0] + coef[1] / 1.7
            print(f"{metric:12s} f_core={mode:5s} a={coef[0]:7.1f} b={coef[1]:7.1f} ns*GHz"
                  f"  -> E5-2603v4 {pred:6.1f} ns")
            for n, r, l in zip(names, res, loo):
                print(f"     {n:18s} resid {r:+6.1f}  LOO {l:+7.1f}")
    # identifiability of c/f_u and d/qpi
    print("\n  Identifiability: f_uncore takes only 2 values (3.0 HSW / 2.8 BDW, both"
          "\n  max-uncore assumptions) and QPI is 9.6 GT/s on every MLC point, so"
          "\n  a + b/f_c + c/f_u + d/qpi has a rank-deficient design (d) or is"
          "\n  exactly determined/collinear with the HSW/BDW split (c).")
    # CAS points: does QPI explain cross-socket?
    print("\n  CAS cross-socket vs QPI: 2630v4 (8.0 GT/s) %.1f ns, 2680v4 (9.6) %.1f,"
          " 2695v4 (9.6) %.1f -> the slowest link has the LOWEST latency: QPI"
          " speed is not the driver at this resolution." % (
              CAS['cross']['BDW-2630v4-c2c'], CAS['cross']['BDW-2680v4-c2c'],
              CAS['cross']['BDW-2695v4-c2c']))

# ---------------------------------------------------------------------------
# Part B: anchored decomposition, Monte Carlo
# ---------------------------------------------------------------------------
U = random.uniform

def draw_priors():
    """One draw of the structural priors (see latency-model.md, section 4)."""
    return dict(
        nc_req=U(12, 20),      # requester core-clock cycles on an L2 miss (L2 12-15 cy + fill)
        nc_own=U(10, 24),      # owner core's L2 snoop + data read, core cycles
        t_dev=U(30, 34),       # DRAM device time tRCD+tCL+burst, ns (DDR4 RDIMM, ~constant in ns)
        t_phy=U(3, 10),        # iMC/PHY (DCLK domain) ns at DDR4-2133, scales with 2133/MT
        q_pipe=U(5, 14),       # QPI link+agent pipeline per crossing at 9.6 GT/s, ns
        psi=U(0.3, 1.0),       # share of q_pipe that scales with 1/QPI rate
        phi_c=U(0.6, 1.0),     # share of cache-path remainder on the uncore clock
        phi_d=U(0.5, 0.9),     # share of DRAM-path remainder on the uncore clock
        es_snoop=U(0.0, 0.5),  # share of a QPI round trip exposed in LOCAL DRAM (ES mode)
        snoop_mode=U(-4, 4),   # anchor snoop mode unknown vs target Early Snoop, ns
        die_hcc=U(-12, 0),     # uncore-cycle change LCC vs HCC (ring hops), cache metrics
        die_mcc=U(-6, 0),      # same vs MCC
    )

def qpi_time(q, p, crossings, flits=10):
    """QPI contribution for `crossings` link traversals (flits: request+data)."""
    ser = flits * 4.0 / q                     # 4 UI per flit, UI = 1/q ns
    pipe = crossings * p['q_pipe'] * (p['psi'] * 9.6 / q + (1 - p['psi']))
    return ser + pipe

def fc_as_run(m):
    if m['turbo'] is True:
        return m['fc'][1]
    if m['turbo'] is False:
        return m['fc'][0]
    return random.choice(m['fc'])

def die_delta(m, p):
    return {'HCC': p['die_hcc'], 'MCC': p['die_mcc'], 'LCC': 0.0}[m['die']]

def structure(metric, m, p, fc):
    """Return (core_ns, fixed_ns, dram_fixed, kind) for a machine."""
    core = p['nc_req'] / fc
    fixed = 0.0
    if metric == 'llc_hit':
        return core, 0.0, 'c'
    if metric == 'local_hitm':
        return core + p['nc_own'] / fc, 0.0, 'c'
    if metric == 'remote_hitm_llc':
        return core, qpi_time(m['qpi'], p, 2), 'c'
    if metric == 'remote_hitm_l2':
        return core + p['nc_own'] / fc, qpi_time(m['qpi'], p, 2), 'c'
    dram = p['t_dev'] + p['t_phy'] * 2133.0 / m['dram'] + 8000.0 / m['dram'] - 3.75
    if metric == 'local_dram':
        return core, dram + p['es_snoop'] * qpi_time(m['qpi'], p, 2, flits=2), 'd'
    if metric == 'remote_dram':
        return core, dram + qpi_time(m['qpi'], p, 2), 'd'
    raise KeyError(metric)

def transfer(metric, anchor, L, target, fu_t, p):
    """Move an anchor's measured latency to the target's clocks."""
    ma = M[anchor]
    fca = fc_as_run(ma)
    core_a, fix_a, kind = structure(metric, ma, p, fca)
    rem = L - core_a - fix_a + (p['snoop_mode'] if kind == 'd' else 0.0)
    if rem <= 0:
        return None
    phi = p['phi_c'] if kind == 'c' else p['phi_d']
    nu = phi * rem * ma['fu']                      # uncore cycles on the anchor
    if kind == 'c' or metric == 'local_dram':
        nu += die_delta(ma, p) - die_delta(target, p)  # ring-size correction
    fixed_rem = (1 - phi) * rem
    core_t, fix_t, _ = structure(metric, target, p, fc_as_run(target))
    return core_t + fix_t + fixed_rem + nu / fu_t

def mc(metric, target, fu_t, anchors=None, n=4000):
    anchors = anchors or list(DATA[metric])
    out = []
    for _ in range(n):
        p = draw_priors()
        a = random.choice(anchors)
        v = transfer(metric, a, DATA[metric][a], target, fu_t, p)
        if v is not None:
            out.append(v)
    out.sort()
    q = lambda x: out[int(x * (len(out) - 1))]
    return q(0.5), q(0.1), q(0.9)

def partB():
    print("\n" + "=" * 78)
    print("PART B  anchored decomposition; E5-2603 v4 predictions (median [p10, p90])")
    print("=" * 78)
    metrics = ['remote_hitm_l2', 'remote_hitm_llc', 'local_dram', 'remote_dram',
               'llc_hit', 'local_hitm']
    fus = [1.7, 2.2, 2.7]
    print(f"{'metric':16s}" + "".join(f"   f_unc={f:.1f} GHz        " for f in fus))
    results = {}
    for metric in metrics:
        row = []
        for fu in fus:
            med, lo, hi = mc(metric, TARGET, fu)
            row.append(f"  {med:6.1f} [{lo:5.1f},{hi:6.1f}]    ")
            results[(metric, fu)] = (med, lo, hi)
        print(f"{metric:16s}" + "".join(row))
    # pooled over the uncore range (uniform 1.7-2.7 GHz)
    print("\nPooled over f_unc ~ U(1.7, 2.7) GHz:")
    for metric in metrics:
        vals = []
        for _ in range(8000):
            p = draw_priors(); fu = U(1.7, 2.7)
            a = random.choice(list(DATA[metric]))
            v = transfer(metric, a, DATA[metric][a], TARGET, fu, p)
            if v is not None: vals.append(v)
        vals.sort(); q = lambda x: vals[int(x * (len(vals) - 1))]
        print(f"  {metric:16s} median {q(.5):6.1f}  p10 {q(.1):6.1f}  p90 {q(.9):6.1f}"
              f"  (p2.5 {q(.025):6.1f}, p97.5 {q(.975):6.1f})")
    return results

def loo():
    print("\n" + "=" * 78)
    print("PART B  leave-one-out across anchors (predict anchor j from the others,"
          "\n        at anchor j's own clocks, uncore = its assumed max)")
    print("=" * 78)
    for metric, pts in DATA.items():
        names = list(pts)
        if len(names) < 2:
            print(f"  {metric:16s} single anchor - no LOO possible")
            continue
        for j in names:
            others = [a for a in names if a != j]
            tgt = dict(M[j])
            med, lo, hi = mc(metric, tgt, M[j]['fu'], anchors=others, n=3000)
            print(f"  {metric:16s} {j:18s} meas {pts[j]:6.1f} pred {med:6.1f}"
                  f" [{lo:5.1f},{hi:6.1f}] resid {pts[j]-med:+6.1f}")
    # cross-check: the CAS machines.  MLC-equivalent prediction vs CAS medians.
    print("\n  Check against CAS ping-pong medians (CAS = one RFO-HITM + locked op;"
          "\n  expected to sit ~0-15 ns above the MLC-type load HITM):")
    for kind, metric in (('same', 'local_hitm'), ('cross', 'remote_hitm_l2')):
        for n, v in CAS[kind].items():
            med, lo, hi = mc(metric, dict(M[n]), M[n]['fu'], n=3000)
            print(f"  {kind:5s} {n:16s} CAS {v:6.1f}  model(MLC-type) {med:6.1f}"
                  f" [{lo:5.1f},{hi:6.1f}]  CAS-model {v-med:+6.1f}")

if __name__ == '__main__':
    partA()
    res = partB()
    loo()
