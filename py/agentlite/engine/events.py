"""Every event a chat sends to the page: plain dicts with a `kind`, posted as `{type: "event", chat, event}`.
Once a chat is closed (`Engine.close_chat`) it sends nothing more, even while its turn winds down.

Turn and state
- `turn_start`   {turn, id, text, mode, dialect, regenerate}: a user message started agent turn `turn` (the id
                 that `restore-turn` / `data-turn` uses: every workspace change of the turn is recorded under
                 it); `id` is the user message's id. `regenerate`: the message is one already shown, answered
                 again (a new version of its answer), so no new user bubble.
- `state`        {state, previous, round?}: the chat's state machine moved (engine.state.ChatState values:
                 idle, planning, requesting, streaming, running_tools, deciding, responding, completed, error,
                 cancelled). `round` (1-based) comes with `requesting`.
- `turn_end`     {turn, state: completed | error | cancelled, rounds}: the turn is over, the chat is idle
                 again. `turn` is null for a queued turn stopped before it began.
- `title`        {title}: the chat's title (the first user message, cut to 40 characters; no model call).

Assistant messages (one bubble per model round; a `length` continuation keeps writing into the same one)
- `message_start` {id, role: "assistant", turn, round}
- `text`          {text}: answer text, appended to the open bubble.
- `thinking`      {text, tool_id}: reasoning, shown apart (`tool_id` ties ndjson thinking to its call).
- `message_end`   {id, state: done | interrupted | error}: interrupted = stopped or the connection dropped
                  (the partial text is kept); error = the round failed and the user is asked what to do.
- `usage`         {prompt_tokens, completion_tokens, total_tokens}, `finish` {reason},
  `protocol_note` {message}: as the stream decoder reports them.

Tool calls (cards live in the open bubble)
- `tool_started`  {id, name}: a call began streaming (canonical tool name).
- `tool_preview`  {id, field, text}: the text so far of a streamed argument (`content`, `newCode`, ...);
                 field `path`: the file a streamed call writes, sent once and whole, before its content.
- `tool_ready`    {id, name, arguments, note}: the call is complete; `tool_invalid` {id, reason, name}: it
                  can never run (its `tool_status` follows with `failed`).
- `tool_status`   {id, name, status, arguments?, reason?, result?, duration_ms?}: status is pending,
                  awaiting-approval, executing, completed, failed or rejected (docs/contract.md data-status).
                  `arguments` comes with pending, `reason` with awaiting-approval and with a call the
                  loop guard refused (rejected, not run), `result` ({code, message, data, errorType})
                  and `duration_ms` with the three final states.
- `approval`      {id, name, arguments, reason, batch}: the call waits for the user (tool-approve /
                  tool-reject). `batch` names the reply: answering with batch=true covers every call of it.

Errors, retries and decisions
- `retry`         {attempt, of, wait_s, error_type, message}: an automatic retry, after `wait_s` seconds.
- `turn_error`    {error_type, message, status, code, provider_type, retry_after, final}: the error banner
                  (`data-error-type`). final=false: a `decision` follows; final=true: the turn ended on it.
- `decision`      {error_type, message, advice, options, settings, reason?}: the retries ran out; options
                  is a subset of ["retry", "alternative", "skip", "cancel"] in that order (decision-*
                  buttons); settings=true: the fix is in Settings (the API key). After a loop stop:
                  error_type null, reason "loop", options ["retry", "cancel"] (retry = let it go on).
- `decision_made` {choice}: the decision was taken (remove the buttons).
- `dialect`       {dialect, reason}: `auto` switched dialect (or the user chose the alternative).
- `stopped`       {reason, message}: why the engine ended the loop early: max_rounds, loop (the same call
                  5 times: a `decision` follows), repeated_reply (the same reply with text twice), length
                  (5 continuations in a row). Show `message`.
- `notice`        {level, message}: something the user should know that is not an error (a chat that
                  could not be saved).

Context, plan and memory
- `context`       {used, window, limit, source: estimate | provider, stubbed?, summarized?}: the context
                  meter: tokens of the request (estimate before sending, provider usage after), the model's
                  window, and the budget the engine keeps under. After a compaction: how many old results
                  became stubs and how many messages the summary covers.
- `summary`       {covered, source: model | fallback, text}: an engine-made summary replaced old messages.
- `plan`          {turn, steps: [{text, done}]}: the task checklist (created, or a step ticked).
- `memory`        {action: "added", memory: {id, text, pinned, source, created, updated}}: a long-term
                  memory was stored from what the user said.

What the page sends back (the lead wires these to ChatSession methods)
- approve a call:  `chat.approve(call_id, approved: bool, batch: bool = False)`
- decide:          `chat.decide(choice)` with one of the offered options
- stop:            `chat.stop()`
- settings:        `chat.configure(mode=, max_rounds=, auto_approve=, context_window=, reserve=)`
"""

from __future__ import annotations

ENGINE_KINDS = frozenset(
    {
        "turn_start", "state", "turn_end", "title", "message_start", "message_end", "tool_status", "approval",
        "retry", "turn_error", "decision", "decision_made", "dialect", "stopped", "notice", "context",
        "summary", "plan", "memory",
    }
)  # fmt: skip
STREAM_KINDS = frozenset(
    {"text", "thinking", "tool_started", "tool_preview", "tool_ready", "tool_invalid", "protocol_note",
     "usage", "finish"}
)  # fmt: skip
KINDS = ENGINE_KINDS | STREAM_KINDS
