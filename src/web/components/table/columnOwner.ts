/**
 * The signed-in username, which tables key their remembered columns by (columnChoice.ts). Its
 * own module so the app shell, in the initial JavaScript, pulls in nothing else of the tables.
 */
import { createContext } from 'react';

export const ColumnOwnerContext = createContext('');
