import { useState, type DragEvent } from 'react';

/**
 * Files dragged onto an element and dropped there: whether they are over it (for the outline
 * that says a drop is taken) and the element's drag and drop handlers. `take` gets the dropped
 * files and answers whether it took any: only then is the browser's own drop (opening the file
 * in the tab) stopped.
 */
export function useFileDrop(take: (files: File[]) => boolean) {
  const [dragging, setDragging] = useState(false);
  const handlers = {
    onDragOver: (event: DragEvent<HTMLElement>) => {
      if (![...event.dataTransfer.types].includes('Files')) return;
      event.preventDefault();
      setDragging(true);
    },
    onDragLeave: () => setDragging(false),
    onDrop: (event: DragEvent<HTMLElement>) => {
      setDragging(false);
      if (take([...event.dataTransfer.files])) event.preventDefault();
    },
  };
  return { dragging, handlers };
}
