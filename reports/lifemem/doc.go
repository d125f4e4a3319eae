// Package lifemem is LifeMem's report of a lifelong run and its sweep study:
// Table 2 (category OP and BwT), the score matrices and their heat maps,
// Figure 3 (transfer categories), Table 4 (zero-shot OOD), Table 5 (streams),
// Table 8 (sensitivity), Table 10 (costs), the cluster statistics, the
// paper's numbers beside ours, and the stream-order study of a sweep over
// lifelong.orders (OP and BwT across the orders and their rankings). It reads the lifelong results the protocol
// left under <run>/lifelong/ and draws with reports/render; reports.Write
// hands it every run that holds such results.
package lifemem
