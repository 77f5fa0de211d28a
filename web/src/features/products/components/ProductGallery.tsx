import { PRODUCT_IMAGE_SIZES } from '@shop/contracts/images';
import { useState } from 'react';
import { responsiveImage } from '../../../lib/images';

const mainStyle = { aspectRatio: '1 / 1', objectFit: 'contain', width: '100%', height: 'auto' } as const;
const thumbStyle = { aspectRatio: '1 / 1', objectFit: 'cover', width: '100%', height: 'auto' } as const;

/**
 * The main image and the extra images as thumbnails; clicking a thumbnail shows it. The main image is
 * the page's largest paint: fetched at high priority, and React's server rendering puts its preload
 * (with the same srcset and sizes) in the head.
 */
export function ProductGallery({ name, image, images }: { name: string; image: string; images: string[] }) {
  const all = [...new Set([image, ...images].filter(Boolean))];
  const [selected, setSelected] = useState(0);
  const shown = all[selected] ?? image;
  return (
    <div>
      <img
        src={shown}
        {...responsiveImage(shown, PRODUCT_IMAGE_SIZES)}
        alt={name}
        width={600}
        height={600}
        style={mainStyle}
        className="rounded border bg-body"
        fetchPriority="high"
        data-testid="gallery-main"
      />
      {all.length > 1 && (
        <ul className="list-unstyled row row-cols-4 row-cols-sm-5 g-2 mt-1" aria-label="Product images">
          {all.map((src, i) => (
            <li className="col" key={src}>
              <button
                type="button"
                className={`btn p-0 w-100 border ${i === selected ? 'border-primary border-2' : ''}`}
                aria-label={`Show image ${i + 1} of ${all.length}`}
                aria-pressed={i === selected}
                data-early={`gallery:${i}`}
                onClick={() => setSelected(i)}
              >
                <img src={src} alt="" width={120} height={120} style={thumbStyle} loading="lazy" className="rounded" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
