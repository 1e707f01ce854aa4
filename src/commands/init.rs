//! `judge init [dir]`: a working judge in a folder — `judge.toml` (the
//! embedded default), the Maildir folders and an empty database.

use std::path::Path;

use crate::config::{Config, InboxSettings, OutboxSettings};
use crate::store::Store;

/// The configuration as shipped.
pub const DEFAULT_CONFIG: &str = include_str!("../../judge.toml");

pub fn run(dir: &Path) -> Result<Vec<String>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let mut done = Vec::new();
    let config_path = dir.join("judge.toml");
    if config_path.exists() {
        done.push(format!("kept the existing {}", config_path.display()));
    } else {
        std::fs::write(&config_path, DEFAULT_CONFIG)
            .map_err(|e| format!("writing {}: {e}", config_path.display()))?;
        done.push(format!("wrote {}", config_path.display()));
    }
    let config = Config::load(&config_path)?;
    let maildirs = [
        match &config.inbox {
            InboxSettings::Maildir { path } => Some(path),
            _ => None,
        },
        match &config.outbox {
            OutboxSettings::Maildir { path } => Some(path),
            _ => None,
        },
    ];
    for path in maildirs.into_iter().flatten() {
        let root = config.resolve(path);
        for sub in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(root.join(sub))
                .map_err(|e| format!("creating {}: {e}", root.join(sub).display()))?;
        }
        done.push(format!("made the Maildir {}", root.display()));
    }
    let db = config.database_path();
    let existed = db.exists();
    Store::open(&db).map_err(|e| format!("{}: {e}", db.display()))?;
    crate::app::mark_created(&config);
    done.push(if existed {
        format!("kept the existing database {}", db.display())
    } else {
        format!("made the database {}", db.display())
    });
    Ok(done)
}
