//! A private temporary directory (mode 0700 on Unix) that is removed, with everything in it,
//! when dropped. For commands that exchange files with hermes (speech-to-text and
//! text-to-speech command providers): other users cannot read the audio or text inside.

use std::path::Path;
use std::path::PathBuf;

#[derive(Debug)]
pub struct PrivateTempDir {
    path: PathBuf,
}

impl PrivateTempDir {
    /// A new directory `<system temp>/<prefix>-<random>`.
    pub fn create(prefix: &str) -> std::io::Result<Self> {
        let path = std::env::temp_dir().join(format!("{prefix}-{}", uuid::Uuid::new_v4().simple()));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            builder.mode(0o700);
        }
        builder.create(&path)?;
        Ok(Self { path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for PrivateTempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directory_is_private_and_removed_on_drop() {
        let dir = PrivateTempDir::create("hermes-test").unwrap();
        let path = dir.path().to_path_buf();
        std::fs::write(path.join("a.txt"), "x").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        drop(dir);
        assert!(!path.exists());
    }
}
