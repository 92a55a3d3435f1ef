//! Who the client is, and how fast it may ask. Every request counts against
//! its address (an IPv6 client's /64, the block one machine gets); a
//! request that shows a valid token counts against its account too, once
//! the token is verified, so a forged token spends nobody's budget. The
//! address is the peer's, or, when the peer is a proxy the server trusts
//! (`--trusted-proxy`), the client `X-Forwarded-For` names. Idle keys are
//! forgotten, so the limiters' memory is bounded by the recent clients.

use crate::error::ApiError;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use ipnet::IpNet;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

/// The client's address, as the rate limits key it: an IPv6 address with
/// its last 64 bits cleared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientAddress(pub IpAddr);

impl ClientAddress {
    fn of(ip: IpAddr) -> ClientAddress {
        ClientAddress(match ip {
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => {
                    let bits = u128::from(v6) & !((1u128 << 64) - 1);
                    IpAddr::V6(Ipv6Addr::from(bits))
                }
            },
            v4 => v4,
        })
    }
}

/// The client of a request from `peer`: the peer itself, unless it is a
/// trusted proxy, in which case the nearest address in `X-Forwarded-For`
/// that is not a trusted proxy (read from the right, as each proxy
/// appends the address it saw).
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> ClientAddress {
    ClientAddress::of(client_ip(peer, headers, trusted))
}

/// The client's own address, found as [`client_address`] finds it but
/// whole (an IPv4 address mapped into IPv6 as its IPv4 one): what an
/// allow-list of networks is checked against.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let plain = |ip: IpAddr| match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    };
    let peer = plain(peer);
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let forwarded = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect::<Vec<_>>();
    for hop in forwarded.iter().rev() {
        match hop.parse::<IpAddr>() {
            Ok(ip) if is_trusted(&plain(ip)) => continue,
            Ok(ip) => return plain(ip),
            // A hop a trusted proxy did not write: the chain ends here.
            Err(_) => break,
        }
    }
    peer
}

/// The rate limiters, and the uploads in progress per address.
pub struct Limits {
    by_address: DefaultKeyedRateLimiter<ClientAddress>,
    by_account: DefaultKeyedRateLimiter<i64>,
    uploads: Mutex<HashMap<ClientAddress, usize>>,
    uploads_per_address: usize,
}

impl Limits {
    pub fn new(per_second: u32, burst: u32, uploads_per_address: usize) -> Limits {
        let quota = Quota::per_second(NonZeroU32::new(per_second.max(1)).expect("≥ 1"))
            .allow_burst(NonZeroU32::new(burst.max(1)).expect("≥ 1"));
        Limits {
            by_address: RateLimiter::keyed(quota),
            by_account: RateLimiter::keyed(quota),
            uploads: Mutex::new(HashMap::new()),
            uploads_per_address: uploads_per_address.max(1),
        }
    }

    /// Counts a request of a verified account; refused beyond its rate.
    pub fn account(&self, account: i64) -> Result<(), ApiError> {
        self.by_account.check_key(&account).map_err(|_| too_many())
    }

    /// Forgets the keys whose budget is full again: their state is the
    /// same as never having been seen.
    pub fn forget_idle(&self) {
        self.by_address.retain_recent();
        self.by_address.shrink_to_fit();
        self.by_account.retain_recent();
        self.by_account.shrink_to_fit();
    }

    /// How many keys the limiters hold.
    pub fn keys(&self) -> usize {
        self.by_address.len() + self.by_account.len()
    }

    /// A slot for an upload from `address`; refused when it has as many in
    /// progress as it may. The slot is given back when dropped.
    pub fn upload_slot(self: &Arc<Self>, address: ClientAddress) -> Result<UploadSlot, ApiError> {
        let mut uploads = self.uploads.lock().expect("never poisoned");
        let n = uploads.entry(address).or_default();
        if *n >= self.uploads_per_address {
            return Err(ApiError::TooMany(format!(
                "{} uploads from your address are in progress, the most at once; wait for them",
                self.uploads_per_address
            )));
        }
        *n += 1;
        Ok(UploadSlot {
            limits: self.clone(),
            address,
        })
    }
}

/// An upload in progress from an address ([`Limits::upload_slot`]).
pub struct UploadSlot {
    limits: Arc<Limits>,
    address: ClientAddress,
}

impl Drop for UploadSlot {
    fn drop(&mut self) {
        let mut uploads = self.limits.uploads.lock().expect("never poisoned");
        if let Some(n) = uploads.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                uploads.remove(&self.address);
            }
        }
    }
}

fn too_many() -> ApiError {
    ApiError::TooMany("too many requests; slow down and try again in a second".into())
}

/// What the rate limit of every request needs: the limits, and the
/// proxies trusted to name the client.
#[derive(Clone)]
pub struct Gate {
    pub limits: Arc<Limits>,
    pub trusted: Arc<[IpNet]>,
}

/// Finds the request's client, records it in the request
/// ([`ClientAddress`]), and refuses the request beyond its address's rate.
pub async fn rate_limit(State(gate): State<Gate>, mut req: Request, next: Next) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.ip());
    let client = client_address(peer, req.headers(), &gate.trusted);
    req.extensions_mut().insert(client);
    if gate.limits.by_address.check_key(&client).is_err() {
        return too_many().into_response();
    }
    next.run(req).await
}

/// The limits on sign-in (and sign-up) attempts: per account name, and
/// three times as many per client address, each a minute's budget that
/// refills as the minute passes; idle keys are forgotten
/// ([`SignInLimits::forget_idle`]), so memory is bounded by the last
/// minute's clients.
pub struct SignInLimits {
    by_address: DefaultKeyedRateLimiter<ClientAddress>,
    by_name: DefaultKeyedRateLimiter<String>,
}

impl SignInLimits {
    pub fn new(per_minute: u32) -> SignInLimits {
        let quota = |n: u32| {
            let n = NonZeroU32::new(n.max(1)).expect("≥ 1");
            Quota::per_minute(n).allow_burst(n)
        };
        SignInLimits {
            by_address: RateLimiter::keyed(quota(per_minute.saturating_mul(3))),
            by_name: RateLimiter::keyed(quota(per_minute)),
        }
    }

    /// Counts an attempt from `address` for the account `name` (in any
    /// case); refused beyond either budget.
    pub fn attempt(&self, address: Option<ClientAddress>, name: &str) -> Result<(), ApiError> {
        let too_many = || {
            ApiError::TooMany(
                "too many sign-in attempts for this account or from your address; wait a minute and try again"
                    .into(),
            )
        };
        if let Some(a) = address {
            self.by_address.check_key(&a).map_err(|_| too_many())?;
        }
        self.by_name
            .check_key(&name.to_lowercase())
            .map_err(|_| too_many())
    }

    /// Forgets the keys whose budget is full again.
    pub fn forget_idle(&self) {
        self.by_address.retain_recent();
        self.by_address.shrink_to_fit();
        self.by_name.retain_recent();
        self.by_name.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forwarded(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", value.parse().unwrap());
        h
    }

    #[test]
    fn the_client_is_the_peer_unless_the_peer_is_a_trusted_proxy() {
        let proxy: IpAddr = "10.0.0.2".parse().unwrap();
        let trusted: Vec<IpNet> = vec!["10.0.0.0/24".parse().unwrap()];
        let h = forwarded("203.0.113.9, 198.51.100.7, 10.0.0.5");
        // From the proxy: the nearest untrusted hop, read from the right.
        assert_eq!(
            client_address(proxy, &h, &trusted).0,
            "198.51.100.7".parse::<IpAddr>().unwrap()
        );
        // From anyone else, the header is not believed.
        let other: IpAddr = "192.0.2.1".parse().unwrap();
        assert_eq!(client_address(other, &h, &trusted).0, other);
        // Without a header, or with rubbish, the proxy itself.
        assert_eq!(client_address(proxy, &HeaderMap::new(), &trusted).0, proxy);
        assert_eq!(
            client_address(proxy, &forwarded("rubbish"), &trusted).0,
            proxy
        );
    }

    #[test]
    fn ipv6_clients_are_limited_by_their_64_bit_prefix() {
        let a = ClientAddress::of("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = ClientAddress::of("2001:db8:1:2:bbbb::9".parse().unwrap());
        let c = ClientAddress::of("2001:db8:1:3::1".parse().unwrap());
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mapped = ClientAddress::of("::ffff:192.0.2.1".parse().unwrap());
        assert_eq!(mapped.0, "192.0.2.1".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn an_address_has_as_many_uploads_in_progress_as_allowed() {
        let limits = Arc::new(Limits::new(10, 10, 2));
        let me = ClientAddress::of("192.0.2.1".parse().unwrap());
        let first = limits.upload_slot(me).unwrap();
        let _second = limits.upload_slot(me).unwrap();
        assert!(limits.upload_slot(me).is_err());
        let other = ClientAddress::of("192.0.2.2".parse().unwrap());
        assert!(limits.upload_slot(other).is_ok());
        drop(first);
        assert!(limits.upload_slot(me).is_ok());
    }
}
