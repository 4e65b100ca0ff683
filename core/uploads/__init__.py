"""What teachers bring in: chat attachments and their text, own exams/worksheets as examples, Lehrpläne as
curriculum chunks, knowledge from JSON files. Files are checked (type, size, zip bombs, DTD tricks) before reading."""
