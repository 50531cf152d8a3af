//! Audio files ↔ [`Clip`]s for TTS: WAV read and written with hound (8/16/24/32-bit integer
//! and 32-bit float, any channel count), MP3/OGG Vorbis/FLAC decoded with rodio's symphonia
//! decoders. Multi-channel audio is averaged to mono; the rate is kept as the file has it.
//!
//! Blocking file I/O: call from `spawn_blocking` on an async task.

use std::path::Path;

use crate::voice::audio::Clip;

/// Why audio could not be read or written; a detail (the caller names the provider or file).
#[derive(Debug, thiserror::Error)]
pub enum AudioFileError {
    #[error("unsupported output_format `{0}` (use wav, mp3, ogg or flac)")]
    UnsupportedFormat(String),
    #[error(transparent)]
    Wav(#[from] hound::Error),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Decode(#[from] rodio::decoder::DecoderError),
}

/// Decode `path`, written as `format` (`wav`, `mp3`, `ogg`, `flac`), to a mono clip.
pub fn decode_file(path: &Path, format: &str) -> Result<Clip, AudioFileError> {
    match format.to_ascii_lowercase().as_str() {
        "wav" | "wave" => read_wav(path),
        "mp3" | "ogg" | "oga" | "opus" | "flac" => decode_compressed(path),
        other => Err(AudioFileError::UnsupportedFormat(other.to_string())),
    }
}

/// Read a WAV file to a mono clip.
pub fn read_wav(path: &Path) -> Result<Clip, AudioFileError> {
    let reader = hound::WavReader::open(path)?;
    let spec = reader.spec();
    let interleaved: Vec<f32> = match spec.sample_format {
        hound::SampleFormat::Float => reader.into_samples::<f32>().collect::<Result<_, _>>()?,
        hound::SampleFormat::Int => {
            let scale = 2f32.powi(i32::from(spec.bits_per_sample.clamp(1, 32)) - 1);
            reader
                .into_samples::<i32>()
                .map(|s| s.map(|v| v as f32 / scale))
                .collect::<Result<_, _>>()?
        }
    };
    Ok(to_mono_clip(&interleaved, spec.channels, spec.sample_rate))
}

/// Write `clip` as a 16-bit mono WAV.
pub fn write_wav(path: &Path, clip: &Clip) -> Result<(), AudioFileError> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: clip.rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut writer = hound::WavWriter::create(path, spec)?;
    for &sample in &clip.samples {
        writer.write_sample(sample)?;
    }
    Ok(writer.finalize()?)
}

/// Decode compressed audio in memory (MP3, OGG Vorbis, FLAC, WAV).
pub fn decode_bytes(bytes: Vec<u8>) -> Result<Clip, AudioFileError> {
    decode_reader(std::io::Cursor::new(bytes))
}

fn decode_compressed(path: &Path) -> Result<Clip, AudioFileError> {
    let file = std::fs::File::open(path)?;
    decode_reader(std::io::BufReader::new(file))
}

fn decode_reader<R>(reader: R) -> Result<Clip, AudioFileError>
where
    R: std::io::Read + std::io::Seek + Send + Sync + 'static,
{
    use rodio::Source;
    let decoder = rodio::Decoder::new(reader)?;
    let channels = decoder.channels().get();
    let rate = decoder.sample_rate().get();
    let interleaved: Vec<f32> = decoder.collect();
    Ok(to_mono_clip(&interleaved, channels, rate))
}

fn to_mono_clip(interleaved: &[f32], channels: u16, rate: u32) -> Clip {
    let channels = usize::from(channels.max(1));
    let samples = interleaved
        .chunks(channels)
        .map(|frame| {
            let mean = frame.iter().sum::<f32>() / frame.len() as f32;
            (mean.clamp(-1.0, 1.0) * f32::from(i16::MAX)).round() as i16
        })
        .collect();
    Clip::new(samples, rate)
}

/// Little-endian 16-bit PCM bytes to samples; an odd trailing byte is ignored.
pub fn pcm_s16le(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
        .collect()
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
