# Stand-in (our own text) for a tool class with its schema dict.
from typing import Any, Dict


class Lookup:
    @staticmethod
    def get_info() -> Dict[str, Any]:
        return {
            "type": "function",
            "function": {"name": "lookup"},
        }
