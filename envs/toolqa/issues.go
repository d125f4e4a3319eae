package toolqa

// DataIssues lists answer keys of the official files that disagree with the
// CSV; the oracle cannot (and should not) reproduce them, and envs.Check
// reports them as excluded.
func (s *Suite) DataIssues() map[string]string {
	return map[string]string{
		"lifemem/hard-coffee-0133": "LifeMem's key says 24, but the CSV has 208 days between 2002-05-30 and 2004-02-23 on which the price rose from the previous day",
	}
}
