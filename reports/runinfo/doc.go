// Package runinfo is what every report says about the run it reads: the
// provenance columns stamped onto each CSV (backbone, model, data source,
// harness version), the backbone line beside a title and the source line
// under a table, the run's warnings, its usage per call purpose and its
// plan against what it spent. It reads runrecord records only; the run report
// (package reports) and the studies (reports/lifemem) share it.
package runinfo
