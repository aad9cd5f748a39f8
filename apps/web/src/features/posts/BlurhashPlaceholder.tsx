import { decode, isBlurhashValid } from 'blurhash';
import { useEffect, useRef, useState } from 'react';

/** Decoded this small and stretched by CSS: a blurhash has no detail to lose. */
const SIZE = { width: 32, height: 20 };

/**
 * The image's blurhash, drawn under it while it loads (the box keeps its size, so the card does
 * not move) and gone once it has loaded.
 */
export function BlurhashPlaceholder({ hash }: { hash: string | null | undefined }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !hash || !isBlurhashValid(hash).result) return;
    const context = canvas.getContext('2d');
    if (!context) return;
    const image = context.createImageData(SIZE.width, SIZE.height);
    image.data.set(decode(hash, SIZE.width, SIZE.height));
    context.putImageData(image, 0, 0);
  }, [hash]);
  if (!hash) return null;
  return (
    <canvas
      ref={canvasRef}
      width={SIZE.width}
      height={SIZE.height}
      className="post-card__blurhash"
      aria-hidden="true"
      data-testid="blurhash"
    />
  );
}

/** Whether the image at `src` has loaded, with the handler its img element reports it by. */
export function useImageLoaded(src: string | undefined) {
  const [loadedSrc, setLoadedSrc] = useState<string | undefined>(undefined);
  return {
    loaded: src !== undefined && loadedSrc === src,
    onLoad: () => {
      setLoadedSrc(src);
    },
  };
}
