//! The streaming TTS pipeline (spec-002c §3.6): reply deltas in, speech out while the model is
//! still writing. Deltas go through the [`SentenceSplitter`]; each complete sentence is
//! synthesised on its own task while the previous one plays, and its audio is handed to the
//! [`AudioSink`] chunk by chunk as it arrives, strictly in sentence order.
//!
//! Up to `1 + lookahead` sentences are synthesised at once. Audio goes through the
//! [`AudioCache`] when one is given (a hit skips the provider). A sentence that fails is
//! reported and skipped; a sink that refuses a clip stops the speaker.
//!
//! [`Speaker::stop`] (or a [`StopHandle`] from another task) cancels every synthesis in flight
//! (HTTP requests are dropped, commands killed), takes no more sentences, and silences the sink
//! at once; no clip reaches the sink after `stop` returns. One `Speaker` speaks one reply.
//! Progress is reported as [`SpeechEvent`]s (speaking state for the UI, latency for tests).

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::time::Duration;
use std::time::Instant;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::AudioCache;
use super::SentenceSplitter;
use super::SynthError;
use super::Synthesizer;
use super::sentences::MIN_SENTENCE_CHARS;
use crate::voice::audio::AudioSink;
use crate::voice::audio::Clip;

/// How a [`Speaker`] runs.
#[derive(Debug, Clone)]
pub struct SpeakerOptions {
    /// Reuse and store audio here; `None`: no cache.
    pub cache: Option<AudioCache>,
    /// Where [`SpeechEvent`]s go; `None`: nowhere.
    pub events: Option<mpsc::UnboundedSender<SpeechEvent>>,
    /// Sentences synthesised ahead of the one whose audio is being handed to the sink.
    pub lookahead: usize,
    /// Shorter pieces are merged into the next sentence.
    pub min_sentence_chars: usize,
}

impl Default for SpeakerOptions {
    fn default() -> Self {
        Self {
            cache: None,
            events: None,
            lookahead: 1,
            min_sentence_chars: MIN_SENTENCE_CHARS,
        }
    }
}

/// What the pipeline did, per sentence (`index` counts from 0 in reply order).
#[derive(Debug, Clone, PartialEq)]
pub enum SpeechEvent {
    /// The splitter completed a sentence.
    Sentence {
        index: usize,
        text: String,
        at: Instant,
    },
    /// Synthesis of the sentence began (or its cache lookup).
    SynthStarted { index: usize, at: Instant },
    /// The sentence's first audio was handed to the sink.
    FirstAudio {
        index: usize,
        at: Instant,
        from_cache: bool,
    },
    /// All of the sentence's audio has been produced.
    SynthFinished {
        index: usize,
        at: Instant,
        audio: Duration,
    },
    /// The sentence could not be spoken; speech goes on with the next one.
    Failed { index: usize, error: SynthError },
    /// Nothing more will be handed to the sink: everything was, or speech was stopped.
    Done { stopped: bool },
}

/// Stops a [`Speaker`] from anywhere (an interrupt, a new recording, `/voice off`).
#[derive(Clone)]
pub struct StopHandle {
    cancel: CancellationToken,
    sink: Arc<dyn AudioSink>,
    /// Held around every `sink.play`, so a clip cannot slip in after `stop`.
    gate: Arc<Mutex<()>>,
}

impl std::fmt::Debug for StopHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StopHandle")
            .field("stopped", &self.is_stopped())
            .finish_non_exhaustive()
    }
}

impl StopHandle {
    /// Cancel all synthesis and silence the sink now.
    pub fn stop(&self) {
        self.cancel.cancel();
        let _gate = self.gate.lock().unwrap_or_else(PoisonError::into_inner);
        self.sink.stop();
    }

    pub fn is_stopped(&self) -> bool {
        self.cancel.is_cancelled()
    }
}

/// Speaks one streamed reply. See the module docs.
pub struct Speaker {
    splitter: SentenceSplitter,
    sentences: Option<mpsc::UnboundedSender<(usize, String)>>,
    next_index: usize,
    stop: StopHandle,
    events: Option<mpsc::UnboundedSender<SpeechEvent>>,
    task: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Speaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Speaker")
            .field("sentences", &self.next_index)
            .field("stopped", &self.stop.is_stopped())
            .finish_non_exhaustive()
    }
}

/// What the worker tasks share.
#[derive(Clone)]
struct Worker {
    synth: Arc<Synthesizer>,
    sink: Arc<dyn AudioSink>,
    cache: Option<AudioCache>,
    events: Option<mpsc::UnboundedSender<SpeechEvent>>,
    cancel: CancellationToken,
    gate: Arc<Mutex<()>>,
}

impl Worker {
    fn emit(&self, event: SpeechEvent) {
        if let Some(events) = &self.events {
            let _ = events.send(event);
        }
    }
}

/// One sentence's audio on its way from its synthesis task to the player.
struct Job {
    index: usize,
    audio: mpsc::UnboundedReceiver<Audio>,
    /// When its synthesis was started, for the first-audio latency in debug logs.
    started: Instant,
}

enum Audio {
    Chunk { clip: Clip, from_cache: bool },
    Failed(SynthError),
}

impl Speaker {
    /// Start the pipeline on the current tokio runtime (panics outside one, like
    /// `tokio::spawn`).
    pub fn start(
        synth: Arc<Synthesizer>,
        sink: Arc<dyn AudioSink>,
        options: SpeakerOptions,
    ) -> Self {
        let cancel = CancellationToken::new();
        let gate = Arc::new(Mutex::new(()));
        let (tx, rx) = mpsc::unbounded_channel();
        let worker = Worker {
            synth,
            sink: Arc::clone(&sink),
            cache: options.cache,
            events: options.events.clone(),
            cancel: cancel.clone(),
            gate: Arc::clone(&gate),
        };
        let task = tokio::spawn(run(worker, rx, options.lookahead.max(1)));
        Self {
            splitter: SentenceSplitter::with_min_chars(options.min_sentence_chars),
            sentences: Some(tx),
            next_index: 0,
            stop: StopHandle { cancel, sink, gate },
            events: options.events,
            task: Some(task),
        }
    }

    /// Feed a delta of the reply; complete sentences start synthesising at once.
    pub fn push_delta(&mut self, delta: &str) {
        if self.stop.is_stopped() || self.sentences.is_none() {
            return;
        }
        let sentences = self.splitter.push(delta);
        self.send(sentences);
    }

    /// The reply is complete: speak what is left. Further deltas are ignored.
    pub fn finish(&mut self) {
        if self.sentences.is_some() && !self.stop.is_stopped() {
            let rest = self.splitter.finish();
            self.send(rest);
        }
        self.sentences = None;
    }

    /// Stop at once: see [`StopHandle::stop`].
    pub fn stop(&self) {
        self.stop.stop();
    }

    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.is_stopped()
    }

    /// Sentences completed so far.
    pub fn sentence_count(&self) -> usize {
        self.next_index
    }

    /// [`Self::finish`], then wait until every clip was handed to the sink (or speech was
    /// stopped). The sink may still be playing when this returns.
    pub async fn wait(mut self) {
        self.finish();
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }

    fn send(&mut self, sentences: Vec<String>) {
        let Some(tx) = &self.sentences else {
            return;
        };
        for text in sentences {
            let index = self.next_index;
            self.next_index += 1;
            if let Some(events) = &self.events {
                let _ = events.send(SpeechEvent::Sentence {
                    index,
                    text: text.clone(),
                    at: Instant::now(),
                });
            }
            let _ = tx.send((index, text));
        }
    }
}

async fn run(
    worker: Worker,
    mut sentences: mpsc::UnboundedReceiver<(usize, String)>,
    lookahead: usize,
) {
    let (jobs_tx, mut jobs) = mpsc::channel::<Job>(lookahead);
    let dispatch = {
        let worker = worker.clone();
        async move {
            while let Some((index, text)) = sentences.recv().await {
                // Wait for room first, so at most `1 + lookahead` syntheses run.
                let Ok(permit) = jobs_tx.reserve().await else {
                    break;
                };
                let (tx, rx) = mpsc::unbounded_channel();
                tokio::spawn(synthesize(worker.clone(), index, text, tx));
                permit.send(Job {
                    index,
                    audio: rx,
                    started: Instant::now(),
                });
            }
        }
    };
    let play = async {
        while let Some(job) = jobs.recv().await {
            play(&worker, job).await;
        }
    };
    tokio::select! {
        _ = async { tokio::join!(dispatch, play) } => {}
        () = worker.cancel.cancelled() => {}
    }
    worker.emit(SpeechEvent::Done {
        stopped: worker.cancel.is_cancelled(),
    });
}

/// Synthesise one sentence (or fetch it from the cache), sending audio as it arrives.
async fn synthesize(worker: Worker, index: usize, text: String, tx: mpsc::UnboundedSender<Audio>) {
    let started = Instant::now();
    tracing::debug!(
        sentence = index,
        chars = text.chars().count(),
        "tts: synthesis started"
    );
    worker.emit(SpeechEvent::SynthStarted {
        index,
        at: Instant::now(),
    });
    let cached = match &worker.cache {
        Some(cache) => {
            let key = AudioCache::key(&worker.synth.identity(), &text);
            let lookup = {
                let (cache, key) = (cache.clone(), key.clone());
                tokio::task::spawn_blocking(move || cache.get(&key)).await
            };
            if let Ok(Some(clip)) = lookup {
                let audio = clip.duration();
                let _ = tx.send(Audio::Chunk {
                    clip,
                    from_cache: true,
                });
                worker.emit(SpeechEvent::SynthFinished {
                    index,
                    at: Instant::now(),
                    audio,
                });
                return;
            }
            Some((cache.clone(), key))
        }
        None => None,
    };
    let stream = tokio::select! {
        stream = worker.synth.stream(&text, &worker.cancel) => stream,
        () = worker.cancel.cancelled() => return,
    };
    let mut stream = match stream {
        Ok(stream) => stream,
        Err(error) => {
            let _ = tx.send(Audio::Failed(error));
            return;
        }
    };
    let mut all = Vec::new();
    loop {
        let chunk = tokio::select! {
            chunk = stream.next_chunk() => chunk,
            () = worker.cancel.cancelled() => return,
        };
        match chunk {
            None => break,
            Some(Ok(samples)) if samples.is_empty() => {}
            Some(Ok(samples)) => {
                all.extend_from_slice(&samples);
                let clip = Clip::new(samples, stream.rate);
                let chunk = Audio::Chunk {
                    clip,
                    from_cache: false,
                };
                if tx.send(chunk).is_err() {
                    return;
                }
            }
            Some(Err(error)) => {
                let _ = tx.send(Audio::Failed(error));
                return;
            }
        }
    }
    let clip = Clip::new(all, stream.rate);
    let audio = clip.duration();
    tracing::debug!(
        sentence = index,
        took_ms = started.elapsed().as_millis(),
        audio_ms = audio.as_millis(),
        "tts: synthesis finished"
    );
    if let Some((cache, key)) = cached
        && stream.is_cacheable()
    {
        let _ = tokio::task::spawn_blocking(move || cache.put(&key, &clip)).await;
    }
    worker.emit(SpeechEvent::SynthFinished {
        index,
        at: Instant::now(),
        audio,
    });
}

/// Hand one sentence's audio to the sink as it arrives.
async fn play(worker: &Worker, mut job: Job) {
    let mut first = true;
    loop {
        let audio = tokio::select! {
            audio = job.audio.recv() => audio,
            () = worker.cancel.cancelled() => return,
        };
        match audio {
            None => return,
            Some(Audio::Failed(error)) => {
                tracing::warn!("text-to-speech: sentence {} skipped: {error}", job.index);
                worker.emit(SpeechEvent::Failed {
                    index: job.index,
                    error,
                });
                return;
            }
            Some(Audio::Chunk { clip, from_cache }) => {
                let played = {
                    let _gate = worker.gate.lock().unwrap_or_else(PoisonError::into_inner);
                    if worker.cancel.is_cancelled() {
                        return;
                    }
                    worker.sink.play(clip)
                };
                match played {
                    Ok(()) if first => {
                        first = false;
                        tracing::debug!(
                            sentence = job.index,
                            from_cache,
                            after_ms = job.started.elapsed().as_millis(),
                            "tts: first audio to the output"
                        );
                        worker.emit(SpeechEvent::FirstAudio {
                            index: job.index,
                            at: Instant::now(),
                            from_cache,
                        });
                    }
                    Ok(()) => {}
                    Err(e) => {
                        worker.emit(SpeechEvent::Failed {
                            index: job.index,
                            error: SynthError::Playback(e.to_string()),
                        });
                        worker.cancel.cancel();
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "speaker_tests.rs"]
mod tests;
