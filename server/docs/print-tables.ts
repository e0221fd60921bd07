import { renderErrorTable, renderOperationsTable } from './reference-tables.js';

process.stdout.write(`${renderOperationsTable()}\n\n${renderErrorTable()}\n`);
