# Stand-in for the release's prompt_builder.py, written for the harness's
# tests: same file name and the same code shapes the pack reader relies on,
# with sentences of our own.
from typing import Dict, List


def get_actual_used_history(action_history, max_history_tokens=None, max_history_days=None, reference_timestamp=None):
    """Pick the newest records that fit."""
    for action in reversed(action_history):
        timestamp = action.get("timestamp", "when?")
        action_type = action.get("type", "what?")
        action_text = (
            f"[Rec]at {timestamp}\n"
            f"  kind: {action_type}\n"
            f"  seen: {context_str}\n"
            f"  did: {result_str}\n"
        )
    return {"original_count": 0}


def build_history_summary(action_history, max_history_tokens=None, current_action=None):
    """Render the history block."""
    history_info = get_actual_used_history(action_history, max_history_tokens)
    display_actions = history_info["actual_used_actions"]
    current_tokens = history_info["actual_used_tokens"]
    if not display_actions:
        if history_info["original_count"] == 0:
            return "Stand-in: this user has no records at all."
        else:
            return "Stand-in: none of this user's records fit."
    lines = []
    lines.append(f"Stand-in header: {len(display_actions)} records, ~{current_tokens} tokens, oldest first:\n")
    for i, action in enumerate(display_actions, 1):
        lines.append(
            f"[Rec {i}]at {timestamp}\n"
            f"  kind: {action_type}\n"
            f"  seen: {context_str}\n"
            f"  did: {result_str}\n"
        )
    return "\n".join(lines)


def build_test_action_description(action: Dict) -> str:
    """Describe the scene."""
    timestamp = action.get("timestamp", "when?")
    description = (
        f"Stand-in clock {timestamp}; the user meets a <{action_type}> scene.\n"
        f"Scene details:\n{context_str}"
    )
    return description


def build_movie_prompt(user_profile, action_history, test_action, question_info, max_history_tokens=None):
    user_profile_short = user_profile
    prompt_parts = [
        "Stand-in film rater role line.",
        "## Part A: profile",
        user_profile_short,
        "## Part B: history",
        history_summary,
        "## Part C: scene",
        scenario_desc,
        "## Task",
        "Pick 1-5 {braces stay literal}.",
        "Answer:",
    ]
    prompt = "\n".join(prompt_parts)
    return {"prompt": prompt}


def build_single_binary_prompt(user_profile, action_history, test_action, question_info, max_history_tokens=None):
    user_profile_short = user_profile
    prompt_parts = [
        "Stand-in role line with \"quotes\" and {{braces}}.",
        "## Rules",
        "1. **Evidence** first.",
        "## Part A: profile",
        "Profile guide line:",
        user_profile_short,
        "## Part B: history",
        "History guide line:",
        history_summary,
        "## Part C: scene",
        "Scene guide line:",
        scenario_desc,
        "## Task",
        yes_no_question,
        "Answer:",
    ]
    prompt = "\n".join(prompt_parts)
    return {"prompt": prompt}


def build_single_continuous_prompt(user_profile, action_history, test_action, question_info):
    field = question_info.get("field", "")
    continuous_questions = {
        "video_watch_seconds": "Stand-in: seconds on this clip?",
        "live_watch_seconds": "Stand-in: seconds in this room?",
    }
    if field in continuous_questions:
        question_text = continuous_questions[field]
    else:
        question_text = f"Stand-in: how long? ({field})"
    return question_text


def build_single_text_prompt(user_profile, action_history, test_action, question_info, max_history_tokens=None):
    history_summary = build_history_summary(action_history, max_history_tokens=max_history_tokens)
    question_text = question_info.get("question", "")
    field = question_info.get("field", "")
    user_profile_short = user_profile
    if field == "search_keyword":
        prompt_parts = [
            "Stand-in search task: guess the query.",
            "## Part one: who",
            user_profile_short,
            "## Part two: what happened",
            history_summary,
            "## Task",
            "Type the query only.",
        ]
    elif field == "next_user_message":
        prompt_parts = [
            "Stand-in chat task: guess the next line.",
            "## Part one: who",
            user_profile_short,
            "## Part two: what happened",
            history_summary,
            "## Part three: the chat",
            question_text,
            "Say the line only.",
        ]
    else:
        scenario_desc = build_test_action_description(test_action)
        prompt_parts = [
            "Stand-in free text task.",
            user_profile_short,
            history_summary,
            scenario_desc,
            question_text,
        ]
    prompt = "\n".join(prompt_parts)
    return {"prompt": prompt, "field": field}


def build_prediction_questions(action: Dict) -> List[Dict]:
    """Questions of one record, in asking order."""
    questions = []
    if action.get("type") == "video":
        questions.append({"question": "seconds", "type": "continuous", "field": "video_watch_seconds"})
        questions.append({"question": "liked", "type": "binary", "field": "video_liked"})
    if action.get("type") == "chat":
        context_info = format_action_context(action)
        dialogue_text = "user: hi"
        if not dialogue_text:
            question_text = (
                f"Stand-in opening chat.\n"
                f"Order: {context_info}\n"
                f"What is the user's first line?"
            )
        else:
            question_text = (
                f"Stand-in chat so far.\n"
                f"Order: {context_info}\n"
                f"Turns:\n{dialogue_text}\n"
                f"What does the user say next?"
            )
        questions.append({"question": question_text, "type": "text", "field": "next_user_message"})
    if action.get("type") == "live":
        questions.append({"question": "seconds", "type": "continuous", "field": "live_watch_seconds"})
        questions.append({"question": "gift", "type": "binary", "field": "live_sent_gift"})
        questions.append({"question": "shared", "type": "binary", "field": "live_shared"})
    return questions


def _get_yes_no_question_by_field(question_info: Dict) -> str:
    field = question_info.get("field", "")
    yes_no_questions = {
        # a comment inside the dict
        "video_liked": "Stand-in: will they like the clip?",
        "live_sent_gift": ("Stand-in: will they "
                           "send a gift?"),
    }
    if field in yes_no_questions:
        return yes_no_questions[field]
    return f"Stand-in: will they do it? ({field})"


def format_action_context(action: Dict) -> str:
    context = action.get("context", {})
    action_type = action.get("type", "")
    if action_type == "movie":
        return f"Stand-in film {context['movie_title']} ({context['release_year']}), kinds {context['genres']}"
    return "none"


def format_action_result(action: Dict) -> str:
    results = []
    for act in action.get("action", []):
        results.append(f"Stand-in rating {act['rating']}")
    return ", ".join(results) if results else "nothing"
