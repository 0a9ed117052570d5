//! Runs the deadline sweep and the daily digest on cron schedules
//! (tokio-cron-scheduler). The jobs only send an [`Event`] on a channel; the
//! server's deadline thread does the work with its own database connection.

use std::sync::mpsc::SyncSender;

use tokio_cron_scheduler::{Job, JobScheduler};

/// Something the schedule asks the server to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Run the deadline sweep.
    Sweep,
    /// Send the daily digest.
    Digest,
}

/// Cron expressions with seconds: `sec min hour day-of-month month day-of-week`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The deadline sweep; every five minutes by default.
    pub sweep: String,
    /// The daily digest, if wanted (e.g. `0 0 8 * * *`).
    pub digest: Option<String>,
}

impl Default for Schedule {
    fn default() -> Schedule {
        Schedule {
            sweep: "0 */5 * * * *".to_string(),
            digest: None,
        }
    }
}

/// Checks a cron expression; the message says what is wrong.
pub fn validate(expression: &str) -> Result<(), String> {
    Job::new_async(expression, |_, _| Box::pin(async {}))
        .map(|_| ())
        .map_err(|e| format!("\"{expression}\" is not a cron schedule with seconds (sec min hour day month weekday): {e:?}"))
}

/// Starts the scheduler; events arrive on `events` until it is dropped.
pub async fn start(schedule: &Schedule, events: SyncSender<Event>) -> Result<JobScheduler, String> {
    let scheduler = JobScheduler::new()
        .await
        .map_err(|e| format!("cannot start the scheduler: {e:?}"))?;
    let mut jobs = vec![(schedule.sweep.clone(), Event::Sweep)];
    jobs.extend(schedule.digest.clone().map(|cron| (cron, Event::Digest)));
    for (expression, event) in jobs {
        let sender = events.clone();
        let job = Job::new_async(expression.as_str(), move |_, _| {
            let sender = sender.clone();
            Box::pin(async move {
                // A full queue means the work is already pending.
                let _ = sender.try_send(event);
            })
        })
        .map_err(|e| format!("schedule \"{expression}\": {e:?}"))?;
        scheduler
            .add(job)
            .await
            .map_err(|e| format!("cannot add the {event:?} job: {e:?}"))?;
    }
    scheduler
        .start()
        .await
        .map_err(|e| format!("cannot start the scheduler: {e:?}"))?;
    Ok(scheduler)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_are_checked() {
        assert!(validate("0 */5 * * * *").is_ok());
        assert!(validate("0 0 8 * * *").is_ok());
        assert!(validate("every five minutes").is_err());
    }
}
