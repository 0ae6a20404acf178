//! The guide's table of job-file keys (`docs/src/reference/job-file.md`), generated from the
//! tables of [`super::schema`] (a test keeps the page in step).

use super::schema::{
    EXTENSIONS, EXTRA_CONFIGURATIONS, FIELDS, FieldId, INSTANCE_KEYS, REGISTRY_KEYS, TRACE_KEYS, TYPE_FILE_KEY,
    TableKey,
};

/// The guide's table of job-file keys (Markdown), generated from the schema's tables.
pub fn key_table() -> String {
    let mut out = String::from(
        "| Job file key | ElasticJob YAML key / `props` key | Default |\n|---|---|---|\n\
         | **`[registry]`** (omit for the embedded registry) | | |\n",
    );
    let table_rows = |out: &mut String, keys: &[TableKey]| {
        for k in keys {
            let about = if k.about.is_empty() { "—".to_string() } else { format!("— ({})", k.about) };
            out.push_str(&format!("| `{}` | {about} | {} |\n", k.key, k.default));
        }
    };
    table_rows(&mut out, REGISTRY_KEYS);
    out.push_str("| **`[instance]`** | | |\n");
    table_rows(&mut out, INSTANCE_KEYS);
    out.push_str("| **`[trace]`** (omit for no trace) | | |\n");
    table_rows(&mut out, TRACE_KEYS);
    out.push_str("| **`[[job]]`** | | |\n");
    for f in FIELDS {
        let note = if f.note.is_empty() { String::new() } else { format!(" {}", f.note) };
        out.push_str(&format!("| `{}` | `{}`{note} | {} |\n", f.file, f.yaml, f.default));
        if f.id == FieldId::JobName {
            out.push_str(&format!(
                "| `{TYPE_FILE_KEY}` | job root node data `SCRIPT` / `HTTP` / `DATAFLOW` | `script` |\n"
            ));
        }
    }
    out.push_str(&format!(
        "| — | `{EXTRA_CONFIGURATIONS}` | not settable from a job file (tagged Java objects); kept as written |\n"
    ));
    out.push_str("| **ejctl extensions (stored in `props`)** | | |\n");
    for e in EXTENSIONS {
        let pinned = if e.pinned { "; **pinned** to the job file" } else { "" };
        out.push_str(&format!("| `{}` ({}) | `{}` | {}{pinned} |\n", e.key, e.types.join(", "), e.prop, e.default));
    }
    out
}
