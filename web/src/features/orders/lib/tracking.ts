/**
 * A page where anyone can follow a parcel by its tracking number, whatever the carrier (17TRACK
 * recognises the carrier from the number); supplier carriers have no single site of their own.
 */
export const trackingUrl = (trackingNumber: string) => `https://t.17track.net/en#nums=${encodeURIComponent(trackingNumber)}`;
