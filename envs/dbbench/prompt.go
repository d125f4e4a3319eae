package dbbench

import "strconv"

// Protocol is the instruction shown before each question, in our own words:
// it states the same rules as LifelongAgentBench's SQL-agent instruction
// (the action syntax, one statement per operation, Python-repr results,
// the round limit) without reproducing its text.
func Protocol(maxSteps int) string {
	return `You will answer a question by working with a MySQL database through SQL.
Think the problem through and explain your reasoning, then end each reply with exactly one action.

To run SQL, end your reply with:
Action: Operation
` + "```sql\nSELECT * FROM table_name WHERE condition;\n```" + `
Put one SQL statement, on one line, inside the sql block and nothing else there; only the first sql block is run.
You will then see the statement's result: for queries, a Python-style list of row tuples such as [(1, 'Alice', 'HR'), (2, 'Bob', 'IT')]; for INSERT, UPDATE and DELETE, an empty list []; if the statement fails, the error message.

When you know the answer, end your reply with:
Action: Answer
Final Answer: [(1, 'Alice', 'HR'), (2, 'Bob', 'IT')]
For a question that asks you to change the table, the final answer can be anything once the change is made; for a question that asks for data, it must be exactly the query result, with columns and rows in the right order (column names are not shown).

A reply that contains neither action fails the task at once. The task ends when you answer or after ` + strconv.Itoa(maxSteps) + ` rounds.

Here is the question.`
}
