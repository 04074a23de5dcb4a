"""A chat's stage: where its turns write when changes land for review, and how the user keeps them.

See docs/stage.md: `layers` (the storage of a stage), `stage` (one chat's), `stage_changes` and
`stage_review` (what it changes, as the review shows it), `stage_book` (every chat's).
"""
