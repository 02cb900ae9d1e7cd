// Snapshots of Python's memory just after its start, kept by the page (IndexedDB: it works on a
// hall's plain-http address too, where the Cache API does not), one per version of Pyodide: a
// lab opened again starts Python from one in a fraction of a second. Any failure of the store
// (private browsing, a full disk) only means Python starts the slow way.

const DB = "knights-tour-lab";
const STORE = "snapshots";

function opened() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function within(mode, act) {
  const db = await opened();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = act(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

/** Resolve with the snapshot kept for version (an ArrayBuffer), or null. */
export function snapshotOf(version) {
  return within("readonly", (store) => store.get(version)).then((bytes) => bytes ?? null, () => null);
}

/** Keep bytes as the snapshot of version, the only one kept (null: forget version's). */
export function keepSnapshot(version, bytes) {
  return within("readwrite", (store) => {
    if (bytes === null) return store.delete(version);
    store.clear();
    return store.put(bytes, version);
  }).catch(() => null);
}
