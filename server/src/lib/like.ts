/** Escapes LIKE/ILIKE wildcards so a search term matches itself (the default escape character is \). */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
