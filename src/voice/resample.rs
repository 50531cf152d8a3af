//! Sample-rate and channel conversion into the one format `voice/` uses inside: 16 kHz mono
//! `i16` ([`super::SAMPLE_RATE`]). Devices hand us interleaved frames in whatever format and rate
//! they run at (cpal: `f32`, `i16`, `u16`, `i32`, … at 44.1/48 kHz, 1–8 channels); files and TTS
//! providers hand us clips at 22.05/24 kHz.
//!
//! [`StreamResampler`] is the streaming form (capture): it keeps the filter state across chunks
//! of any size and [`StreamResampler::finish`] flushes the tail, so the concatenated output is the
//! same whatever the chunking. [`to_rate`] / [`mono_f32_to_rate`] are the one-shot forms (clips),
//! the same streaming core fed at once. It uses rubato's band-limited sinc resampler and trims
//! its start-up delay, so output sample `n` lines up with input time `n / rate_out` (to within
//! one sample: rubato reports its delay in whole frames) and a whole stream comes out
//! `ceil(len × to / from)` samples long.
//!
//! Not here: devices, files, gain or VAD. Channels are downmixed by averaging (speech is
//! mono; averaging cannot clip).

use cpal::FromSample;
use rubato::audioadapter_buffers::direct::InterleavedSlice;
use rubato::{
    Async, FixedAsync, Indexing, Resampler, SincInterpolationParameters, SincInterpolationType,
    WindowFunction,
};

use super::{SAMPLE_RATE, Samples};

/// Input frames per rubato call. ~21 ms at 48 kHz: short enough for a live level meter.
const CHUNK: usize = 1024;
/// Sinc filter taps. 128 keeps the pass band flat to ~0.9 × Nyquist (7 kHz at 16 kHz out),
/// which is all speech recognition needs, at a cost a debug build still runs faster than real
/// time.
const SINC_LEN: usize = 128;

/// Why a conversion could not be set up. Only nonsensical formats get here (a zero rate or no
/// channels): rubato itself cannot fail on buffers this module sizes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResampleError {
    #[error("invalid sample rate {0} Hz")]
    Rate(u32),
    #[error("audio with no channels")]
    NoChannels,
    #[error("the resampler failed: {0}")]
    Rubato(String),
}

/// Average interleaved frames of any sample type into mono `f32` in −1.0..=1.0.
pub fn downmix<T>(interleaved: &[T], channels: u16) -> Vec<f32>
where
    T: cpal::Sample,
    f32: cpal::FromSample<T>,
{
    let channels = usize::from(channels.max(1));
    if channels == 1 {
        return interleaved.iter().map(|&s| f32::from_sample_(s)).collect();
    }
    let scale = 1.0 / channels as f32;
    interleaved
        .chunks_exact(channels)
        .map(|frame| frame.iter().map(|&s| f32::from_sample_(s)).sum::<f32>() * scale)
        .collect()
}

/// `f32` in −1.0..=1.0 to `i16`, saturating (a resampler's overshoot must not wrap around).
pub fn f32_to_i16(x: f32) -> i16 {
    // `as` saturates float → int and maps NaN to 0.
    (x * 32768.0).round().clamp(-32768.0, 32767.0) as i16
}

/// `i16` to `f32` in −1.0..1.0.
pub fn i16_to_f32(x: i16) -> f32 {
    f32::from(x) / 32768.0
}

fn check_rate(rate: u32) -> Result<(), ResampleError> {
    if rate == 0 {
        Err(ResampleError::Rate(rate))
    } else {
        Ok(())
    }
}

fn sinc(from: u32, to: u32) -> Result<Async<f32>, ResampleError> {
    check_rate(from)?;
    check_rate(to)?;
    let window = WindowFunction::BlackmanHarris2;
    let params = SincInterpolationParameters::new(SINC_LEN, window)
        .f_cutoff(rubato::calculate_cutoff(SINC_LEN, window))
        .oversampling_factor(128)
        .interpolation(SincInterpolationType::Linear);
    let ratio = f64::from(to) / f64::from(from);
    Async::<f32>::new_sinc(ratio, 1.0, &params, CHUNK, 1, FixedAsync::Input)
        .map_err(|e| ResampleError::Rubato(e.to_string()))
}

/// The length a whole stream of `input` frames has after conversion (what [`to_rate`] returns
/// and what [`StreamResampler`] has emitted after `finish`).
pub fn output_len(input: usize, from: u32, to: u32) -> usize {
    if from == 0 {
        return 0;
    }
    (input as u128 * u128::from(to)).div_ceil(u128::from(from)) as usize
}

/// Resample a whole mono `f32` clip in one go (`output_len(len, from, to)` samples).
pub fn mono_f32_to_rate(samples: &[f32], from: u32, to: u32) -> Result<Vec<f32>, ResampleError> {
    // Not rubato's `process_all`: in rubato 4.0.0 it moves only `delay` frames when trimming
    // the start-up delay, which garbles the output after the first few dozen samples. The
    // streaming core trims as it goes and is what capture uses anyway.
    let mut core = MonoResampler::new(from, to)?;
    let mut out = core.push(samples)?;
    out.extend(core.finish()?);
    Ok(out)
}

/// Resample a whole mono `i16` clip from `from` Hz to `to` Hz.
pub fn to_rate(samples: &[i16], from: u32, to: u32) -> Result<Vec<i16>, ResampleError> {
    check_rate(from)?;
    check_rate(to)?;
    if from == to {
        return Ok(samples.to_vec());
    }
    let floats: Vec<f32> = samples.iter().map(|&s| i16_to_f32(s)).collect();
    Ok(mono_f32_to_rate(&floats, from, to)?
        .into_iter()
        .map(f32_to_i16)
        .collect())
}

/// Interleaved device frames → 16 kHz mono `i16`, one chunk at a time.
#[derive(Debug)]
pub struct StreamResampler {
    channels: u16,
    core: MonoResampler,
}

impl StreamResampler {
    /// A converter for a device running at `from` Hz with `channels` interleaved channels.
    pub fn new(from: u32, channels: u16) -> Result<Self, ResampleError> {
        if channels == 0 {
            return Err(ResampleError::NoChannels);
        }
        Ok(Self {
            channels,
            core: MonoResampler::new(from, SAMPLE_RATE)?,
        })
    }

    /// Convert the next interleaved chunk (a partial trailing frame is dropped: devices
    /// always deliver whole frames). Returns what is ready; the filter holds back a few
    /// milliseconds until more input or [`finish`](Self::finish).
    pub fn push<T>(&mut self, interleaved: &[T]) -> Result<Samples, ResampleError>
    where
        T: cpal::Sample,
        f32: cpal::FromSample<T>,
    {
        let mono = downmix(interleaved, self.channels);
        self.push_mono(&mono)
    }

    /// [`push`](Self::push) for input that is already mono `f32`.
    pub fn push_mono(&mut self, mono: &[f32]) -> Result<Samples, ResampleError> {
        Ok(self.core.push(mono)?.into_iter().map(f32_to_i16).collect())
    }

    /// Flush the filter: the rest of the stream, so that everything pushed comes out
    /// (`output_len(total input, from, 16 kHz)` samples in all). The resampler is spent after.
    pub fn finish(&mut self) -> Result<Samples, ResampleError> {
        Ok(self.core.finish()?.into_iter().map(f32_to_i16).collect())
    }

    /// Samples emitted so far.
    pub fn output_total(&self) -> usize {
        self.core.output_total
    }
}

/// Mono `f32` from one rate to another, streamed (the engine under [`StreamResampler`] and
/// [`mono_f32_to_rate`]; playback uses it to convert long clips a piece at a time).
pub struct MonoResampler {
    from: u32,
    to: u32,
    /// `None` when the rates match: samples pass straight through.
    sinc: Option<Async<f32>>,
    /// Input not yet handed to rubato (less than one rubato chunk).
    pending: Vec<f32>,
    /// Output frames still to drop: the filter's start-up delay.
    to_trim: usize,
    input_total: usize,
    output_total: usize,
    out_buf: Vec<f32>,
}

impl std::fmt::Debug for MonoResampler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MonoResampler")
            .field("from", &self.from)
            .field("to", &self.to)
            .field("input_total", &self.input_total)
            .field("output_total", &self.output_total)
            .finish_non_exhaustive()
    }
}

impl MonoResampler {
    pub fn new(from: u32, to: u32) -> Result<Self, ResampleError> {
        check_rate(from)?;
        check_rate(to)?;
        let sinc = if from == to {
            None
        } else {
            Some(sinc(from, to)?)
        };
        let to_trim = sinc.as_ref().map_or(0, rubato::Resampler::output_delay);
        let out_buf = vec![
            0.0;
            sinc.as_ref()
                .map_or(0, rubato::Resampler::output_frames_max)
        ];
        Ok(Self {
            from,
            to,
            sinc,
            pending: Vec::with_capacity(CHUNK * 2),
            to_trim,
            input_total: 0,
            output_total: 0,
            out_buf,
        })
    }

    /// Convert the next piece; returns what is ready.
    pub fn push(&mut self, mono: &[f32]) -> Result<Vec<f32>, ResampleError> {
        self.input_total += mono.len();
        let Some(sinc) = self.sinc.as_ref() else {
            self.output_total += mono.len();
            return Ok(mono.to_vec());
        };
        let mut need = sinc.input_frames_next();
        self.pending.extend_from_slice(mono);
        let mut out = Vec::new();
        let mut used = 0;
        while self.pending.len() - used >= need {
            used += self.process(used, None, &mut out)?;
            need = self
                .sinc
                .as_ref()
                .map_or(usize::MAX, rubato::Resampler::input_frames_next);
        }
        self.pending.drain(..used);
        Ok(out)
    }

    /// Flush: the rest of the stream (`output_len(total input, from, to)` samples in all).
    pub fn finish(&mut self) -> Result<Vec<f32>, ResampleError> {
        let mut out = Vec::new();
        if self.sinc.is_none() {
            return Ok(out);
        }
        let expected = output_len(self.input_total, self.from, self.to);
        // The last partial chunk, then silence until the delayed tail has come out.
        let left = self.pending.len();
        self.process(0, Some(left), &mut out)?;
        self.pending.clear();
        while self.output_total < expected {
            let before = (self.output_total, self.to_trim);
            self.process(0, Some(0), &mut out)?;
            if (self.output_total, self.to_trim) == before {
                break;
            }
        }
        let extra = self.output_total.saturating_sub(expected);
        out.truncate(out.len().saturating_sub(extra));
        self.output_total -= extra;
        Ok(out)
    }

    /// One rubato call reading `pending[offset..]` (`partial` frames of it when the stream
    /// ends); appends the trimmed output to `out` and returns the input frames consumed.
    fn process(
        &mut self,
        offset: usize,
        partial: Option<usize>,
        out: &mut Vec<f32>,
    ) -> Result<usize, ResampleError> {
        let Some(sinc) = self.sinc.as_mut() else {
            return Ok(0);
        };
        let need = sinc.input_frames_next();
        // rubato reads `need` frames even for a partial chunk: give it a zero-padded copy then.
        let padded;
        let input: &[f32] = match partial {
            None => &self.pending[offset..offset + need],
            Some(n) => {
                let mut v = vec![0.0; need];
                v[..n].copy_from_slice(&self.pending[offset..offset + n]);
                padded = v;
                &padded
            }
        };
        let input = InterleavedSlice::new(input, 1, need)
            .map_err(|e| ResampleError::Rubato(e.to_string()))?;
        let frames_out = self.out_buf.len();
        let mut output = InterleavedSlice::new_mut(&mut self.out_buf, 1, frames_out)
            .map_err(|e| ResampleError::Rubato(e.to_string()))?;
        let indexing = partial.map(|n| Indexing::new().partial_len(n));
        let (consumed, produced) = sinc
            .process_into_buffer(&input, &mut output, indexing.as_ref())
            .map_err(|e| ResampleError::Rubato(e.to_string()))?;
        let skip = self.to_trim.min(produced);
        self.to_trim -= skip;
        out.extend_from_slice(&self.out_buf[skip..produced]);
        self.output_total += produced - skip;
        Ok(consumed)
    }
}

#[cfg(test)]
#[path = "resample_tests.rs"]
pub(crate) mod tests;
