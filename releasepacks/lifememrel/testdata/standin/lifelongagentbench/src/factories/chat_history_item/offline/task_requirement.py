from typing import Mapping

TASK_REQUIREMENT_DICT: Mapping[TaskName, str] = {
    TaskName.DB_BENCH: """Stand-in requirement for the SQL task.
End with Action: Operation or Action: Answer.""",
    TaskName.OS_INTERACTION: """Another task's requirement.""",
}
