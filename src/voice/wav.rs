//! WAV files and bytes in and out of `voice/`: recordings go to STT providers and caches as
//! 16-bit mono WAV; fixtures, caches and TTS providers hand back WAV in any layout.
//!
//! Reading (hound) accepts PCM at 8, 16, 24 or 32 bits and 32-bit float, any rate, any channel
//! count: channels are averaged to mono, and [`read_16k_mono`] resamples to
//! [`super::SAMPLE_RATE`]. Writing always produces canonical 16-bit mono PCM at the clip's rate;
//! the 44-byte header is written here directly because writing to memory cannot fail, so
//! [`encode`] needs no error path.
//!
//! Not here: other containers (MP3, Opus — TTS providers decode their own), streaming reads.
//! Invariant: every error is [`AudioError::File`] naming the file (or `WAV data (N bytes)` for
//! bytes) and what was wrong with it.

use std::io::Read;
use std::path::Path;

use super::audio::{AudioError, Clip};
use super::resample::{self, f32_to_i16};
use super::{SAMPLE_RATE, Samples};

/// Read any WAV file as 16 kHz mono (downmixed and resampled as needed).
pub fn read_16k_mono(path: &Path) -> Result<Samples, AudioError> {
    let name = path.display().to_string();
    let reader = hound::WavReader::open(path).map_err(|e| file_error(&name, &e))?;
    let (mono, rate) = read_mono(reader, &name)?;
    let at_16k =
        resample::mono_f32_to_rate(&mono, rate, SAMPLE_RATE).map_err(|e| AudioError::File {
            path: name.clone(),
            detail: e.to_string(),
        })?;
    Ok(at_16k.into_iter().map(f32_to_i16).collect())
}

/// Read any WAV file as a mono clip at its own rate.
pub fn read_clip(path: &Path) -> Result<Clip, AudioError> {
    let name = path.display().to_string();
    let reader = hound::WavReader::open(path).map_err(|e| file_error(&name, &e))?;
    let (mono, rate) = read_mono(reader, &name)?;
    Ok(Clip::new(mono.into_iter().map(f32_to_i16).collect(), rate))
}

/// Write `clip` as a 16-bit mono WAV file.
pub fn write(path: &Path, clip: &Clip) -> Result<(), AudioError> {
    std::fs::write(path, encode(clip)).map_err(|e| AudioError::File {
        path: path.display().to_string(),
        detail: format!("cannot write the WAV file: {e}"),
    })
}

/// `clip` as the bytes of a 16-bit mono WAV file (multipart uploads, caches).
pub fn encode(clip: &Clip) -> Vec<u8> {
    // A RIFF size is 32 bits; four hours of 16 kHz audio is far below it, so saturating only
    // guards against a nonsense clip producing a wrapped header.
    let data_len = u32::try_from(clip.samples.len() * 2).unwrap_or(u32::MAX - 36);
    let mut out = Vec::with_capacity(44 + clip.samples.len() * 2);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&clip.rate.to_le_bytes());
    out.extend_from_slice(&clip.rate.saturating_mul(2).to_le_bytes()); // bytes per second
    out.extend_from_slice(&2u16.to_le_bytes()); // bytes per frame
    out.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in &clip.samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out
}

/// Parse WAV bytes into a mono clip at the data's own rate.
pub fn decode(bytes: &[u8]) -> Result<Clip, AudioError> {
    let name = format!("WAV data ({} bytes)", bytes.len());
    let reader = hound::WavReader::new(bytes).map_err(|e| file_error(&name, &e))?;
    let (mono, rate) = read_mono(reader, &name)?;
    Ok(Clip::new(mono.into_iter().map(f32_to_i16).collect(), rate))
}

fn file_error(name: &str, e: &hound::Error) -> AudioError {
    let detail = match e {
        hound::Error::IoError(io) if io.kind() == std::io::ErrorKind::NotFound => {
            "no such file".to_string()
        }
        hound::Error::IoError(io) => format!("cannot read it: {io}"),
        other => format!("not a readable WAV file: {other}"),
    };
    AudioError::File {
        path: name.to_string(),
        detail,
    }
}

/// All samples of `reader` averaged to mono `f32` in −1.0..=1.0, and the sample rate.
fn read_mono<R: Read>(
    mut reader: hound::WavReader<R>,
    name: &str,
) -> Result<(Vec<f32>, u32), AudioError> {
    let spec = reader.spec();
    let bad = |detail: String| AudioError::File {
        path: name.to_string(),
        detail,
    };
    if spec.channels == 0 || spec.sample_rate == 0 {
        return Err(bad(format!(
            "not a playable WAV file: {} channels at {} Hz",
            spec.channels, spec.sample_rate
        )));
    }
    let interleaved: Vec<f32> = match (spec.sample_format, spec.bits_per_sample) {
        (hound::SampleFormat::Float, 32) => reader
            .samples::<f32>()
            .collect::<Result<_, _>>()
            .map_err(|e| file_error(name, &e))?,
        (hound::SampleFormat::Int, bits @ 1..=32) => {
            let scale = 1.0 / (1u64 << (bits - 1)) as f64;
            reader
                .samples::<i32>()
                .map(|s| s.map(|v| (f64::from(v) * scale) as f32))
                .collect::<Result<_, _>>()
                .map_err(|e| file_error(name, &e))?
        }
        (format, bits) => {
            return Err(bad(format!(
                "unsupported WAV sample format: {bits}-bit {format:?}"
            )));
        }
    };
    Ok((
        resample::downmix(&interleaved, spec.channels),
        spec.sample_rate,
    ))
}

#[cfg(test)]
#[path = "wav_tests.rs"]
mod tests;
