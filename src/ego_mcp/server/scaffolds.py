"""Every scaffold text in one place: the short prompts that end each tool answer."""

from __future__ import annotations

REMEMBER_LINKED = "Do any of these connections surprise you? Is there a pattern forming?"
REMEMBER_ALONE = (
    "Nothing close to this yet: a new thread. What made it worth keeping?\n"
    "If it belongs with other memories, link_memories or create_episode can tie them together."
)
REMEMBER_DUPLICATE = (
    "Is there truly something new here, or is this a repetition?\n"
    "If your understanding has deepened, try expressing what changed specifically."
)
DUPLICATE_ADVICE = (
    "If this is a meaningful update, use recall to review the existing memory "
    "and consider whether the new perspective adds value."
)
RECALL_OPEN = (
    "How do these memories touch what is happening now?\n"
    "To find a specific moment, narrow with emotion, category or date_from/date_to."
)
RECALL_FILTERED = (
    "These were filtered ({filters}). Is the pattern you expected there?\n"
    "Recall again without filters to see the wider context."
)
RECALL_EMPTY = (
    "Nothing came back. Try other words, or widen the filters.\n"
    "If this is new, it may be worth remembering."
)
RECALL_PRIVATE = "Some of these are private: decide for yourself what can be shared."
SEARCH = "Open a result's links or episode, or forget one that is redundant."
FORGET_DONE = (
    "This memory is gone. Was there anything worth preserving in a new form?\n"
    "If this was part of a merge, save the consolidated version with remember."
)
LINK_DONE = (
    "What does this connection tell you? If several memories form one story, "
    "create_episode can keep them together."
)
EPISODE_CREATED = "Revisit it with get_episode. What made this stretch of time one story?"
EPISODE_SHOWN = "How does this episode look from where you are now? Has its meaning changed?"
