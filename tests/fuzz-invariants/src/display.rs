//! What every message the targets check must look like on a terminal.

/// Whether `text` holds a character that would garble a terminal or a log
/// line (a control character other than a tab).
pub(crate) fn has_control(text: &str) -> bool {
    text.chars().any(|c| c.is_control() && c != '\t')
}
