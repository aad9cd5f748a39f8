import { POST_MEDIA_MAX } from '@perch/contract';
import { useState, type Dispatch, type SetStateAction } from 'react';
import { FilePreview } from '../../shared/components/FilePreview';
import { AltTextField } from './AltTextField';
import { isImageFile, UploadProgress } from './EditorParts';

/**
 * One image of the album being written, with its description: a file picked on this device
 * (uploaded when the post is sent), or an image the edited post already holds.
 */
export type AlbumItem = { id: string; alt: string } & ({ file: File } | { url: string });

export const albumLimitMessage = (leftOut: number) =>
  `A post holds at most ${POST_MEDIA_MAX} images: ${leftOut} ${
    leftOut === 1 ? 'was' : 'were'
  } left out.`;

/** Adds the image files among `files` after the album's, up to the limit; counts those left out. */
export function addToAlbum(
  album: AlbumItem[],
  files: readonly File[],
): { album: AlbumItem[]; leftOut: number } {
  const images = files.filter(isImageFile);
  const room = Math.max(0, POST_MEDIA_MAX - album.length);
  const added = images.slice(0, room).map((file) => ({ id: crypto.randomUUID(), file, alt: '' }));
  return { album: [...album, ...added], leftOut: images.length - added.length };
}

/** The album with the image at `index` swapped with its neighbour `by` places away. */
export function moveInAlbum(album: AlbumItem[], index: number, by: -1 | 1): AlbumItem[] {
  const target = index + by;
  if (target < 0 || target >= album.length) return album;
  const moved = [...album];
  const [item] = moved.splice(index, 1);
  if (item) moved.splice(target, 0, item);
  return moved;
}

/** Adds picked or dropped files to the album and keeps the note about those over the limit. */
export function useAlbumPicker(album: AlbumItem[], onChange: (album: AlbumItem[]) => void) {
  const [notice, setNotice] = useState<string | null>(null);
  const add = (files: readonly File[]) => {
    const next = addToAlbum(album, files);
    setNotice(next.leftOut > 0 ? albumLimitMessage(next.leftOut) : null);
    if (next.album.length !== album.length) onChange(next.album);
  };
  return { add, notice };
}

/** Records each image's upload progress under its id, while the album is sent. */
export const trackAlbumProgress =
  (album: AlbumItem[], setProgress: Dispatch<SetStateAction<Record<string, number> | null>>) =>
  (index: number, fraction: number) => {
    const id = album[index]?.id;
    if (id) setProgress((shares) => ({ ...shares, [id]: fraction }));
  };

interface AlbumFieldsProps {
  album: AlbumItem[];
  onChange: (album: AlbumItem[]) => void;
  /** Share uploaded so far of each image being uploaded, by its id. */
  progress: Record<string, number> | null;
  busy: boolean;
  notice: string | null;
}

interface AlbumEntryProps extends Omit<AlbumFieldsProps, 'notice' | 'progress'> {
  item: AlbumItem;
  index: number;
  progress: number | undefined;
}

/** One image of the album: its thumbnail, buttons, upload progress and description. */
function AlbumEntry({ album, onChange, item, index, progress, busy }: AlbumEntryProps) {
  const position = index + 1;
  const move = (by: -1 | 1) => {
    onChange(moveInAlbum(album, index, by));
  };
  return (
    <li className="post-album-editor__item">
      {'file' in item ? (
        <FilePreview
          file={item.file}
          alt={`Image ${position}`}
          className="post-album-editor__thumb"
        />
      ) : (
        <img src={item.url} alt={`Image ${position}`} className="post-album-editor__thumb" />
      )}
      <div className="post-album-editor__buttons">
        <button
          type="button"
          aria-label={`Move image ${position} earlier`}
          disabled={busy || index === 0}
          onClick={() => {
            move(-1);
          }}
        >
          ←
        </button>
        <button
          type="button"
          aria-label={`Move image ${position} later`}
          disabled={busy || index === album.length - 1}
          onClick={() => {
            move(1);
          }}
        >
          →
        </button>
        <button
          type="button"
          aria-label={`Remove image ${position}`}
          disabled={busy}
          onClick={() => {
            onChange(album.filter((other) => other.id !== item.id));
          }}
        >
          Remove
        </button>
      </div>
      {progress !== undefined && (
        <UploadProgress progress={progress} label={`Uploading image ${position}`} />
      )}
      <AltTextField
        label={`Description of image ${position}`}
        value={item.alt}
        disabled={busy}
        onChange={(alt) => {
          onChange(album.map((other) => (other.id === item.id ? { ...other, alt } : other)));
        }}
      />
    </li>
  );
}

/** The post's images in order, each with its own buttons, progress and description. */
export function AlbumFields({ album, onChange, progress, busy, notice }: AlbumFieldsProps) {
  return (
    <>
      {album.length > 0 && (
        <ol className="post-album-editor" aria-label={`Images (${album.length})`}>
          {album.map((item, index) => (
            <AlbumEntry
              key={item.id}
              album={album}
              onChange={onChange}
              item={item}
              index={index}
              progress={progress?.[item.id]}
              busy={busy}
            />
          ))}
        </ol>
      )}
      {notice && (
        <p role="alert" className="post-album-editor__notice">
          {notice}
        </p>
      )}
    </>
  );
}
