/** A slug from the lower-cased name: 'Desk Lamp & Shade' -> 'desk-lamp-and-shade' (SPEC section 4). */
export const slugFromName = (name: string): string =>
  name.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 180);

/** The slug "Create Product" gives a draft before it has a name of its own. */
export const draftSlug = (id: string): string => `sample-name-${id}`;

/**
 * Whether a product's slug still follows its name (issue 36): a draft whose slug is the one the
 * shop gave it (the placeholder, or the slug of its current name, with or without the id's tail
 * added to make it unique). Once published, or once the slug is typed by hand, it stays: links to
 * the product keep working.
 */
export function isSlugFollowingName(p: { _id: string; name: string; slug: string; isDraft?: boolean }): boolean {
  if (!p.isDraft) return false;
  const fromName = slugFromName(p.name);
  return p.slug === draftSlug(p._id) || (fromName !== '' && (p.slug === fromName || p.slug === uniqueSlugCandidate(fromName, p._id)));
}

/** The slug to try when `slug` is taken by another product: the id's last six characters added. */
export const uniqueSlugCandidate = (slug: string, id: string): string => `${slug.slice(0, 173)}-${id.slice(-6)}`;
