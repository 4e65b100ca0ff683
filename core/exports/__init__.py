"""File exports of materials (DOCX, .h5p, Moodle XML): validated domain models in, bytes out.

Exports never touch the database or the UI; `files.render` is the one entry the rest of core calls."""
