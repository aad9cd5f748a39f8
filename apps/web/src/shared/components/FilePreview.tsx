import { useEffect, useRef } from 'react';

interface FilePreviewProps {
  file: File;
  alt: string;
  className?: string;
}

/** A picked file shown before it is uploaded, through an object URL that lives as long as it does. */
export function FilePreview({ file, alt, className }: FilePreviewProps) {
  const imageRef = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const image = imageRef.current;
    if (!image || typeof URL.createObjectURL !== 'function') return;
    const url = URL.createObjectURL(file);
    image.src = url;
    return () => {
      URL.revokeObjectURL(url);
    };
  }, [file]);
  return <img ref={imageRef} alt={alt} className={className} />;
}
