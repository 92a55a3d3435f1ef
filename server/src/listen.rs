//! The server's connections: accepted up to a bound, each served by hyper
//! with a timeout on its request headers (hyper's own), and on SIGTERM no
//! new connection while those open finish their requests. What a request
//! may take once its headers are in (its body's pace, its whole time) is
//! bounded by the router's layers ([`crate::routes`]).

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::Service;

/// How long the open connections may take to finish after a stop.
const GRACE: Duration = Duration::from_secs(10);

/// What each connection may take.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Connections open at once; the next waits to be accepted.
    pub max_connections: usize,
    /// The most a request's headers may take to arrive; a connection that
    /// sends them slower is closed.
    pub header_timeout: Duration,
}

/// Serves `app` on `listener` until `stop` resolves, then lets the open
/// connections finish their requests (up to a grace period).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    stop: impl Future<Output = ()>,
) {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(limits.header_timeout)
        .keep_alive_timeout(limits.header_timeout);
    let graceful = GracefulShutdown::new();
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut make_service = app.into_make_service_with_connect_info::<SocketAddr>();
    let mut stop = std::pin::pin!(stop);
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
            () = &mut stop => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors, say: wait rather than spin.
                    tracing::warn!("cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let service = match make_service.call(peer).await {
            Ok(s) => s,
            Err(never) => match never {},
        };
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), TowerToHyperService::new(service))
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(%peer, "connection ended: {e}");
            }
            drop(permit);
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(GRACE) => {
            tracing::warn!("connections still open {GRACE:?} after the stop are closed");
        }
    }
}
