// Package pramem is PraMem's study of a behaviour-prediction run: the
// OmniBehavior Table 1 (with its intervals, per-field detail and the
// paper's numbers beside ours), the ablation Table 2, the memory evolution
// of Figure 4, the twofold-experience and self-review ablations of
// Figures 5 and 6 and the efficiency Table 3. It writes from the scored run
// the generic report scored (reports/scored) and draws with reports/render;
// reports.Write hands it every run and it writes what the run holds the
// methods for, nothing otherwise.
package pramem
